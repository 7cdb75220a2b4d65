#!/usr/bin/env bash
# Build times and benches before (c7597a5, one crate) and after (the workspace), alternately,
# on one machine: how the figures in docs/src/architecture.md were measured.
# usage: benches/build_times.sh BEFORE_TREE AFTER_TREE OUT
#   BEFORE_TREE: a worktree of c7597a5 (git worktree add --detach ../before c7597a5) whose
#   `cargo test --no-run` is built in ~/.cache/marionette/m-before; AFTER_TREE: this checkout,
#   its tests built in ~/.cache/marionette/target. Figures go to OUT (seconds per build), the
#   bench outputs beside it (OUT.crowd-*.json, OUT.lua-*.txt).
set -u
B=$1; A=$2; OUT=$3
TB=$HOME/.cache/marionette/m-before; TA=$HOME/.cache/marionette/m-after
TA_DEV=$HOME/.cache/marionette/target   # the after tree's warm debug build (tests)
declare -A FB=([editor]=src/editor/stats.rs [anim]=src/anim/ik.rs [script]=src/script/watch.rs)
declare -A FA=([editor]=crates/marionette-editor/src/stats.rs [anim]=crates/marionette-anim/src/ik.rs [script]=crates/marionette-script/src/watch.rs)
t(){ # label dir target cmd...
  local label=$1 dir=$2 tgt=$3; shift 3
  local s=$(date +%s.%N)
  (cd "$dir" && CARGO_TARGET_DIR=$tgt "$@" >>$OUT.log 2>&1) || echo "FAILED $label" >> $OUT
  local e=$(date +%s.%N)
  printf '%s %.1f\n' "$label" "$(echo "$e - $s" | bc)" | tee -a $OUT
}
echo "start $(date)" >> $OUT
# incremental test builds first (both trees' debug builds are warm)
for k in editor anim script; do
  touch $B/${FB[$k]}; t "incr-test-$k before" $B $TB cargo test --locked --no-run
  touch $A/${FA[$k]}; t "incr-test-$k after" $A $TA_DEV cargo test --workspace --locked --no-run
done
rm -rf $TB/release $TA/release
t "clean-release before" $B $TB cargo build --release --locked
t "clean-release after" $A $TA cargo build --release --locked
for k in editor anim script; do
  touch $B/${FB[$k]}; t "incr-release-$k before" $B $TB cargo build --release --locked
  touch $A/${FA[$k]}; t "incr-release-$k after" $A $TA cargo build --release --locked
done
# benches: bench crowd (release binary) and cargo bench --bench lua, alternately
for r in 1 2; do
  for side in before after; do
    if [ $side = before ]; then d=$B; tg=$TB; else d=$A; tg=$TA; fi
    (cd $d && $tg/release/marionette bench crowd --json > $OUT.crowd-$side-$r.json 2>>$OUT.log) || echo "FAILED crowd $side" >> $OUT
    echo "crowd $side r$r done" >> $OUT
  done
done
for side in before after; do
  if [ $side = before ]; then d=$B; tg=$TB; else d=$A; tg=$TA; fi
  (cd $d && CARGO_TARGET_DIR=$tg cargo bench --locked --bench lua > $OUT.lua-$side.txt 2>>$OUT.log) || echo "FAILED lua $side" >> $OUT
  echo "lua $side done" >> $OUT
done
for side in before after; do
  if [ $side = before ]; then d=$B; tg=$TB; else d=$A; tg=$TA; fi
  (cd $d && CARGO_TARGET_DIR=$tg cargo bench --locked --bench lua > $OUT.lua-$side-2.txt 2>>$OUT.log) || echo "FAILED lua $side 2" >> $OUT
  echo "lua $side 2 done" >> $OUT
done
echo "end $(date)" >> $OUT
