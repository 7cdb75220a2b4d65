//! `string.find`, `string.match`, `string.gmatch` and `string.gsub` on [`matcher`], Lua 5.4's
//! matcher ported to Rust: the same results and messages, but every step is charged to the
//! script's instruction budget (C pattern matching runs no VM instructions, so the budget hook
//! never saw a backtracking pattern such as `('a'):rep(25):find(('a-'):rep(12) .. 'b')`).

pub(crate) mod matcher;

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Function, Lua, LuaString, MultiValue, Table, Value};

use super::budget::Budget;
use matcher::{find_plain, no_specials, Capture, Matcher, Stop};

/// Replaces the pattern functions of `lua`'s `string` table with budgeted ones.
pub(crate) fn register(lua: &Lua, budget: &Rc<Budget>, memory: usize) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    let b = budget.clone();
    string.set(
        "find",
        lua.create_function(move |lua, args: MultiValue| find_aux(lua, &b, args, true))?,
    )?;
    let b = budget.clone();
    string.set(
        "match",
        lua.create_function(move |lua, args: MultiValue| find_aux(lua, &b, args, false))?,
    )?;
    let b = budget.clone();
    string.set(
        "gmatch",
        lua.create_function(move |lua, args: MultiValue| gmatch(lua, &b, args))?,
    )?;
    let b = budget.clone();
    string.set(
        "gsub",
        lua.create_function(move |lua, args: MultiValue| gsub(lua, &b, memory, args))?,
    )?;
    Ok(())
}

/// `file:line: ` of the calling script line, as Lua's `luaL_where(L, 1)` prefixes errors.
fn position(lua: &Lua) -> String {
    lua.inspect_stack(1, |d| {
        let line = d.current_line()?;
        let src = d.source();
        let file = src
            .source
            .as_deref()
            .and_then(|s| s.strip_prefix('@'))
            .map(str::to_string)
            .or_else(|| src.short_src.as_deref().map(str::to_string))?;
        Some(format!("{file}:{line}: "))
    })
    .flatten()
    .unwrap_or_default()
}

fn runtime(lua: &Lua, msg: &str) -> mlua::Error {
    mlua::Error::runtime(format!("{}{msg}", position(lua)))
}

fn bad_argument(lua: &Lua, n: usize, name: &str, msg: &str) -> mlua::Error {
    runtime(lua, &format!("bad argument #{n} to '{name}' ({msg})"))
}

fn arg(args: &MultiValue, i: usize) -> Value {
    args.get(i).cloned().unwrap_or(Value::Nil)
}

fn string_arg(lua: &Lua, args: &MultiValue, i: usize, name: &str) -> mlua::Result<LuaString> {
    let v = arg(args, i);
    let type_name = if args.len() <= i {
        "no value"
    } else {
        v.type_name()
    };
    lua.coerce_string(v)?.ok_or_else(|| {
        bad_argument(
            lua,
            i + 1,
            name,
            &format!("string expected, got {type_name}"),
        )
    })
}

fn int_arg(lua: &Lua, args: &MultiValue, i: usize, name: &str, default: i64) -> mlua::Result<i64> {
    let v = arg(args, i);
    if v.is_nil() {
        return Ok(default);
    }
    let type_name = v.type_name();
    let is_number = lua.coerce_number(v.clone())?.is_some();
    lua.coerce_integer(v)?.ok_or_else(|| {
        let msg = if is_number {
            "number has no integer representation".to_string()
        } else {
            format!("number expected, got {type_name}")
        };
        bad_argument(lua, i + 1, name, &msg)
    })
}

/// `posrelatI`: a 1-based start position, negative from the end, clipped to `1..`.
fn start_position(pos: i64, len: usize) -> usize {
    if pos > 0 {
        usize::try_from(pos).unwrap_or(usize::MAX)
    } else if pos == 0 || pos.unsigned_abs() > len as u64 {
        1
    } else {
        len - pos.unsigned_abs() as usize + 1
    }
}

/// Charges the steps taken, turning a stop into the Lua error.
fn settle<T>(
    lua: &Lua,
    budget: &Budget,
    steps: u64,
    what: &str,
    r: Result<T, Stop>,
) -> mlua::Result<T> {
    budget.charge(lua, steps, what)?;
    match r {
        Ok(v) => Ok(v),
        Err(Stop::Error(msg)) => Err(runtime(lua, &msg)),
        // The charge above fails first (the steps passed the allowance it left).
        Err(Stop::Steps) => Err(runtime(
            lua,
            &format!("instruction budget exceeded in {what}"),
        )),
    }
}

fn capture_values(lua: &Lua, caps: &[Capture]) -> mlua::Result<MultiValue> {
    caps.iter()
        .map(|c| match c {
            Capture::Bytes(b) => lua.create_string(b).map(Value::String),
            Capture::Position(p) => Ok(Value::Integer(*p as i64)),
        })
        .collect()
}

fn find_aux(lua: &Lua, budget: &Budget, args: MultiValue, find: bool) -> mlua::Result<MultiValue> {
    let name = if find { "find" } else { "match" };
    let what = if find { "string.find" } else { "string.match" };
    let s = string_arg(lua, &args, 0, name)?;
    let p = string_arg(lua, &args, 1, name)?;
    let (s, p) = (s.as_bytes(), p.as_bytes());
    let init = start_position(int_arg(lua, &args, 2, name, 1)?, s.len()) - 1;
    if init > s.len() {
        return Ok(MultiValue::from_iter([Value::Nil]));
    }
    let plain = find && (plain_flag(&arg(&args, 3)) || no_specials(&p));
    let allow = budget.remaining();
    if plain {
        let mut steps = 0;
        let r = find_plain(&s[init..], &p, &mut steps, allow);
        return Ok(match settle(lua, budget, steps, what, r)? {
            Some(at) => MultiValue::from_iter([
                Value::Integer((init + at + 1) as i64),
                Value::Integer((init + at + p.len()) as i64),
            ]),
            None => MultiValue::from_iter([Value::Nil]),
        });
    }
    let (anchor, pat) = match p.split_first() {
        Some((b'^', rest)) => (true, rest),
        _ => (false, &p[..]),
    };
    let mut m = Matcher::new(&s, pat, allow);
    let mut s1 = init;
    let r = loop {
        match m.try_at(s1) {
            Ok(Some(e)) => {
                break if find {
                    m.captures(None).map(|c| Some((s1, e, c)))
                } else {
                    m.captures(Some((s1, e))).map(|c| Some((s1, e, c)))
                }
            }
            Ok(None) => {}
            Err(stop) => break Err(stop),
        }
        s1 += 1;
        if s1 > s.len() || anchor {
            break Ok(None);
        }
    };
    let steps = m.steps;
    match settle(lua, budget, steps, what, r)? {
        Some((start, end, caps)) => {
            let mut out = capture_values(lua, &caps)?;
            if find {
                out.push_front(Value::Integer(end as i64));
                out.push_front(Value::Integer(start as i64 + 1));
            }
            Ok(out)
        }
        None => Ok(MultiValue::from_iter([Value::Nil])),
    }
}

/// Lua truthiness of `string.find`'s fourth argument.
fn plain_flag(v: &Value) -> bool {
    !matches!(v, Value::Nil | Value::Boolean(false))
}

fn gmatch(lua: &Lua, budget: &Rc<Budget>, args: MultiValue) -> mlua::Result<Function> {
    let s = string_arg(lua, &args, 0, "gmatch")?;
    let p = string_arg(lua, &args, 1, "gmatch")?;
    let len = s.as_bytes().len();
    let init = start_position(int_arg(lua, &args, 2, "gmatch", 1)?, len) - 1;
    let src = Cell::new(init.min(len + 1));
    let last: Cell<Option<usize>> = Cell::new(None);
    let budget = budget.clone();
    lua.create_function(move |lua, ()| {
        let (sb, pb) = (s.as_bytes(), p.as_bytes());
        let mut m = Matcher::new(&sb, &pb, budget.remaining());
        let mut at = src.get();
        let r = loop {
            if at > sb.len() {
                break Ok(None);
            }
            match m.try_at(at) {
                Ok(Some(e)) if Some(e) != last.get() => {
                    src.set(e);
                    last.set(Some(e));
                    break m.captures(Some((at, e))).map(Some);
                }
                Ok(_) => at += 1,
                Err(stop) => break Err(stop),
            }
        };
        if let Ok(None) = r {
            src.set(sb.len() + 1);
        }
        let steps = m.steps;
        match settle(lua, &budget, steps, "string.gmatch", r)? {
            Some(caps) => capture_values(lua, &caps),
            None => Ok(MultiValue::new()),
        }
    })
}

/// The replacement argument of `gsub`.
enum Repl {
    Text(Vec<u8>),
    Function(Function),
    Table(Table),
}

fn gsub(lua: &Lua, budget: &Budget, memory: usize, args: MultiValue) -> mlua::Result<MultiValue> {
    let src_s = string_arg(lua, &args, 0, "gsub")?;
    let p = string_arg(lua, &args, 1, "gsub")?;
    let repl = match arg(&args, 2) {
        Value::Function(f) => Repl::Function(f),
        Value::Table(t) => Repl::Table(t),
        v @ (Value::String(_) | Value::Integer(_) | Value::Number(_)) => {
            match lua.coerce_string(v)? {
                Some(s) => Repl::Text(s.as_bytes().to_vec()),
                None => Repl::Text(Vec::new()),
            }
        }
        v => {
            let t = if args.len() <= 2 {
                "no value"
            } else {
                v.type_name()
            };
            return Err(bad_argument(
                lua,
                3,
                "gsub",
                &format!("string/function/table expected, got {t}"),
            ));
        }
    };
    let src = src_s.as_bytes();
    let pb = p.as_bytes();
    let max_s = int_arg(lua, &args, 3, "gsub", src.len() as i64 + 1)?;
    let (anchor, pat) = match pb.split_first() {
        Some((b'^', rest)) => (true, rest),
        _ => (false, &pb[..]),
    };
    let mut m = Matcher::new(&src, pat, budget.remaining());
    let mut out: Vec<u8> = Vec::new();
    let mut at = 0;
    let mut last: Option<usize> = None;
    let mut n: i64 = 0;
    let mut changed = false;
    while n < max_s {
        let found = m.try_at(at);
        let found = match found {
            Ok(f) => f,
            Err(stop) => {
                let steps = m.steps;
                return settle(lua, budget, steps, "string.gsub", Err(stop));
            }
        };
        match found {
            Some(e) if Some(e) != last => {
                n += 1;
                // Lua may run (a function or `__index`): charge what was counted so far.
                let steps = std::mem::take(&mut m.steps);
                budget.charge(lua, steps, "string.gsub")?;
                changed |= add_value(lua, &m, &repl, at, e, &mut out)?;
                m.allow = budget.remaining();
                at = e;
                last = Some(e);
            }
            _ if at < src.len() => {
                out.push(src[at]);
                at += 1;
            }
            _ => break,
        }
        if out.len() > memory.saturating_sub(lua.used_memory()) {
            return Err(mlua::Error::MemoryError("not enough memory".into()));
        }
        if anchor {
            break;
        }
    }
    let steps = m.steps;
    settle(lua, budget, steps, "string.gsub", Ok(()))?;
    let result = if changed {
        out.extend_from_slice(&src[at..]);
        Value::String(lua.create_string(&out)?)
    } else {
        Value::String(src_s.clone())
    };
    Ok(MultiValue::from_iter([result, Value::Integer(n)]))
}

/// Appends the replacement of the match `s..e` (`add_value`); true when the text changed.
fn add_value(
    lua: &Lua,
    m: &Matcher,
    repl: &Repl,
    s: usize,
    e: usize,
    out: &mut Vec<u8>,
) -> mlua::Result<bool> {
    let stop = |stop: Stop| match stop {
        Stop::Error(msg) => runtime(lua, &msg),
        Stop::Steps => runtime(lua, "instruction budget exceeded in string.gsub"),
    };
    let value = match repl {
        Repl::Text(news) => {
            add_text(m, news, s, e, out).map_err(stop)?;
            return Ok(true);
        }
        Repl::Function(f) => {
            let caps = m.captures(Some((s, e))).map_err(stop)?;
            f.call::<Value>(capture_values(lua, &caps)?)?
        }
        Repl::Table(t) => {
            let key = match m.capture_value(0, s, e).map_err(stop)? {
                Capture::Bytes(b) => Value::String(lua.create_string(b)?),
                Capture::Position(p) => Value::Integer(p as i64),
            };
            t.get::<Value>(key)?
        }
    };
    match value {
        Value::Nil | Value::Boolean(false) => {
            out.extend_from_slice(m.whole(s, e));
            Ok(false)
        }
        v @ (Value::String(_) | Value::Integer(_) | Value::Number(_)) => {
            if let Some(text) = lua.coerce_string(v)? {
                out.extend_from_slice(&text.as_bytes());
            }
            Ok(true)
        }
        v => Err(runtime(
            lua,
            &format!("invalid replacement value (a {})", v.type_name()),
        )),
    }
}

/// `add_s`: the replacement string with `%0`-`%9` and `%%` expanded.
fn add_text(m: &Matcher, news: &[u8], s: usize, e: usize, out: &mut Vec<u8>) -> Result<(), Stop> {
    let mut i = 0;
    while i < news.len() {
        let c = news[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let d = news.get(i).copied().unwrap_or(0);
        i += 1;
        match d {
            b'%' => out.push(b'%'),
            b'0' => out.extend_from_slice(m.whole(s, e)),
            b'1'..=b'9' => match m.capture_value(usize::from(d - b'1'), s, e)? {
                Capture::Bytes(b) => out.extend_from_slice(b),
                Capture::Position(p) => out.extend_from_slice(p.to_string().as_bytes()),
            },
            _ => {
                return Err(Stop::Error(
                    "invalid use of '%' in replacement string".into(),
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
