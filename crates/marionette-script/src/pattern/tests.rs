//! The ported matcher against Lua's own: the same calls in a state with the C `string`
//! library and in one with ours must give the same results and the same error messages.

use std::rc::Rc;

use mlua::Lua;

use super::register;
use crate::budget::Budget;

/// Runs every case through `find`, `match`, `gmatch` and `gsub` (string, function and table
/// replacements) and returns one line per result.
const DRIVER: &str = r##"
local cases = ...
local out = {}
local function show(ok, ...)
  if not ok then
    -- mlua shows a Rust callback's error as "runtime error: msg" plus a traceback
    local e = tostring((...)):match("^[^\n]*"):gsub("^runtime error: ", "")
    return "error: " .. e
  end
  local t = {}
  for i = 1, select("#", ...) do t[i] = type((select(i, ...))) .. ":" .. tostring((select(i, ...))) end
  return table.concat(t, ",")
end
local function gm(s, p, init)
  local t = {}
  for a, b in string.gmatch(s, p, init) do
    t[#t + 1] = tostring(a) .. "/" .. tostring(b)
    if #t > 50 then break end
  end
  return table.concat(t, " ")
end
local lookup = setmetatable({}, { __index = function(_, k)
  if k == "a" then return false end
  return "<" .. tostring(k) .. ">"
end })
for i, c in ipairs(cases) do
  local s, p, init, plain = c[1], c[2], c[3], c[4]
  out[#out + 1] = i .. " find " .. show(pcall(string.find, s, p, init, plain))
  out[#out + 1] = i .. " match " .. show(pcall(string.match, s, p, init))
  out[#out + 1] = i .. " gmatch " .. show(pcall(gm, s, p, init))
  out[#out + 1] = i .. " gsub " .. show(pcall(string.gsub, s, p, "[%0|%1]"))
  out[#out + 1] = i .. " gsub2 " .. show(pcall(string.gsub, s, p, "%%", 2))
  out[#out + 1] = i .. " gsubf " .. show(pcall(string.gsub, s, p, function(a, b)
    if a == "b" then return nil end
    return "(" .. tostring(a) .. tostring(b) .. ")"
  end))
  out[#out + 1] = i .. " gsubt " .. show(pcall(string.gsub, s, p, lookup))
end
return table.concat(out, "\n")
"##;

/// Subject, pattern, `init`, `plain`.
type Case = (Vec<u8>, Vec<u8>, Option<i64>, bool);

fn cases() -> Vec<Case> {
    let fixed: &[(&[u8], &[u8])] = &[
        (b"hello world", b"o"),
        (b"hello world", b"o w"),
        (b"hello world", b"l+"),
        (b"hello world", b"l*"),
        (b"hello world", b"l-o"),
        (b"hello world", b"l?o"),
        (b"hello world", b"^h"),
        (b"hello world", b"^w"),
        (b"hello world", b"d$"),
        (b"hello world", b"o$"),
        (b"hello world", b"$"),
        (b"hello world", b"^"),
        (b"hello world", b""),
        (b"hello world", b"(o)(r)"),
        (b"hello world", b"()ll()"),
        (b"hello world", b"(l)%1"),
        (b"hello world", b"%a+"),
        (b"hello world", b"%A+"),
        (b"  trim me  ", b"^%s*(.-)%s*$"),
        (b"key = value", b"(%w+)%s*=%s*(%w+)"),
        (b"f(a(b)c)d", b"%b()"),
        (b"f(a(b)c", b"%b()"),
        (b"THE (quick) fox", b"%f[%a]%a+"),
        (b"THE (quick) fox", b"%f[%l]%a+"),
        (b"a.b.c", b"%."),
        (b"a.b.c", b"."),
        (b"a+b", b"a+b"),
        (b"a+b", b"a%+b"),
        (b"x=1, y=22, z=333", b"%d+"),
        (b"x=1, y=22, z=333", b"[%d]+"),
        (b"x=1, y=22, z=333", b"[^%d,= ]+"),
        (b"abc-def", b"[a-c]+"),
        (b"abc-def", b"[%-]"),
        (b"abc-def", b"[-]"),
        (b"abc]def", b"[]]"),
        (b"abc]def", b"[^]]+"),
        (b"tab\there\nnl\x0bvt", b"%s"),
        (b"CamelCaseWord", b"%u%l+"),
        (b"0x1F 0xZZ", b"0x%x+"),
        (b"a,b,,c", b"([^,]*)"),
        (b"abcabc", b"(a)(b)(c)%3"),
        (b"\0a\0b", b"%z"),
        (b"\0a\0b", b"a%z"),
        (b"\x80\xff\x41", b"[\x80-\xff]+"),
        (b"\x80\xff\x41", b"%w"),
        (b"punct!?", b"%p+"),
        (b"ctrl\x01\x02", b"%c+"),
        (b"mixed123", b"%g+"),
        (b"aaa", b"a-"),
        (b"aaa", b"a-$"),
        (b"", b"a*"),
        (b"", b""),
        (b"abc", b"((a)(b))"),
        (b"abc", b"(a"),
        (b"abc", b"a)"),
        (b"abc", b"%"),
        (b"abc", b"[a"),
        (b"abc", b"[a%"),
        (b"abc", b"%b"),
        (b"abc", b"%bx"),
        (b"abc", b"%f"),
        (b"abc", b"%fa"),
        (b"abc", b"(a)%2"),
        (b"abc", b"%1"),
        (b"abc", b"(()"),
        (b"a.b", b"%w%.%w"),
        (b"hello", b"[%a-z]"),
        (b"hello", b"[a-]"),
        (b"hello", b"[^a-]+"),
        (b"one two  three", b"%S+"),
        (b"aXbXc", b"X()"),
    ];
    let mut out: Vec<Case> = fixed
        .iter()
        .map(|(s, p)| (s.to_vec(), p.to_vec(), None, false))
        .collect();
    for init in [-100, -3, -1, 0, 1, 2, 5, 11, 12, 13, 100] {
        out.push((
            "hello world".as_bytes().to_vec(),
            "o".as_bytes().to_vec(),
            Some(init),
            false,
        ));
        out.push((
            "hello world".as_bytes().to_vec(),
            "l*".as_bytes().to_vec(),
            Some(init),
            false,
        ));
        out.push((
            "hello world".as_bytes().to_vec(),
            "".as_bytes().to_vec(),
            Some(init),
            false,
        ));
    }
    out.push((
        "a.b.c".as_bytes().to_vec(),
        ".".as_bytes().to_vec(),
        None,
        true,
    ));
    out.push((
        "a.b.c".as_bytes().to_vec(),
        ".b".as_bytes().to_vec(),
        Some(2),
        true,
    ));
    out.push((
        "a.b.c".as_bytes().to_vec(),
        "".as_bytes().to_vec(),
        Some(9),
        true,
    ));
    // Random patterns over a small alphabet, deterministic.
    let mut rng = marionette_testkit::Xorshift::new(0x5eed_1234_abcd);
    let mut next = |n: usize| rng.below(n);
    let atoms = [
        "a", "b", ".", "%a", "%d", "[ab]", "[^a]", "(", ")", "()", "%1", "*", "+", "-", "?", "^",
        "$", "%b()", "%f[a]", "[a-c]", " ",
    ];
    let subject = ['a', 'b', 'c', '(', ')', '1', ' '];
    for _ in 0..400 {
        let p: String = (0..1 + next(6)).map(|_| atoms[next(atoms.len())]).collect();
        let s: String = (0..next(12))
            .map(|_| subject[next(subject.len())])
            .collect();
        out.push((s.into_bytes(), p.into_bytes(), None, false));
    }
    out
}

fn run(lua: &Lua) -> String {
    let table = lua.create_table().expect("table");
    for (i, (s, p, init, plain)) in cases().into_iter().enumerate() {
        let c = lua.create_table().expect("table");
        c.raw_set(1, lua.create_string(&s).expect("s"))
            .expect("set");
        c.raw_set(2, lua.create_string(&p).expect("p"))
            .expect("set");
        c.raw_set(3, init).expect("set");
        c.raw_set(4, plain).expect("set");
        table.raw_set(i + 1, c).expect("set");
    }
    lua.load(DRIVER)
        .set_name("=driver")
        .call::<mlua::LuaString>(table)
        .expect("driver runs")
        .to_string_lossy()
}

/// Every case gives the same results and errors through the port as through Lua's C code.
#[test]
fn same_results_as_lua() {
    let c = Lua::new();
    let ours = Lua::new();
    let budget = Budget::new();
    register(&ours, &budget, 64 << 20).expect("register");
    let want = run(&c);
    let got = budget
        .enter(u64::MAX, || Ok(run(&ours)))
        .expect("within budget");
    let (want, got): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    assert_eq!(want.len(), got.len());
    let diffs: Vec<String> = want
        .iter()
        .zip(&got)
        .filter(|(w, g)| w != g)
        .take(10)
        .map(|(w, g)| format!("want {w}\n got {g}"))
        .collect();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// A backtracking pattern stops at the allowance, with the calling line.
#[test]
fn backtracking_is_budgeted() {
    let lua = Lua::new();
    let budget: Rc<Budget> = Budget::new();
    register(&lua, &budget, 64 << 20).expect("register");
    let r = budget.enter(1_000_000, || {
        lua.load("\nlocal _ = (('a'):rep(25)):find(('a-'):rep(12) .. 'b')")
            .set_name("@p.lua")
            .exec()
    });
    let e = r.expect_err("must stop").to_string();
    assert!(
        e.contains("p.lua:2: instruction budget of 1000000 exceeded in string.find"),
        "{e}"
    );
    assert!(budget.spent().is_some());
}
