//! Where a script is: the innermost user-script line on the Lua stack, for messages and for the
//! budget's reports. It reads only the stack, so every layer may use it.

use mlua::Lua;

/// The innermost user-script location on the Lua stack (skips `[C]` and the prelude).
pub(crate) fn caller_location(lua: &Lua) -> Option<crate::Location> {
    for level in 1..32 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            let file = src
                .source
                .as_deref()
                .and_then(|s| s.strip_prefix('@'))
                .map(str::to_string);
            (file, d.current_line())
        });
        match found {
            None => return None,
            Some((Some(file), Some(line))) => {
                return Some(crate::Location {
                    file,
                    // (a chunk of 2^32 lines is past any memory limit; it would read the last)
                    line: u32::try_from(line).unwrap_or(u32::MAX),
                });
            }
            Some(_) => {}
        }
    }
    None
}
