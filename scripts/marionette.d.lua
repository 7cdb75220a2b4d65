---@meta
-- LuaLS type stubs for Marionette scripts. Put this folder in your workspace (or add it to
-- "Lua.workspace.library") and VS Code / Neovim complete and type-check the API.
--
-- Sandbox (the guide, docs/src/sandbox.md): 50M instructions to load, 2M per `post` or predicate call,
-- 1G per take; 64 MiB of memory; 1 MiB of printed text kept; graphs at most 200 levels deep and
-- 100,000 nodes. Pattern matching and `table.move/concat/sort/insert/remove` count against the
-- instruction budget. `setmetatable` refuses a `__gc` field and `local x <close>` is refused: both
-- would run with Lua's hooks off, beyond any budget.
--
-- A mistake in a call (an unknown clip, joint, option or state, a value of the wrong type) does
-- not stop the script: it is recorded at its line, the call returns a placeholder, and the script
-- is rejected at the end with all of them (at most 20). `pcall` therefore does not catch them:
-- look a clip up in `rig.clips` instead. Lua runtime errors stop the script as usual.

---@alias Vec3Like number[]|{x: number, y: number, z: number}
---@alias CurveName "linear"|"smoothstep"|"smooth"|"ease_in"|"ease_out"|"ease_in_out" # "smooth" = "smoothstep"
---@alias Curve CurveName|number[]|fun(t: number): number
---@alias Weight number|string  # a constant, or the name of a float parameter

---A node of the blend graph: a clip player, blend, layer or state machine.
---@class Node
local Node = {}
---Plays the clip once and holds the last frame (clips only).
---@return Node
function Node:once() end
---Loops the clip (the default; clips only).
---@return Node
function Node:loop() end
---Plays faster or slower: a number, or a float parameter's name.
---@param rate Weight
---@return Node
function Node:speed(rate) end
---Starts the clip at an offset in seconds (clips only).
---@param seconds number
---@return Node
function Node:at(seconds) end
---Swaps left and right (L_/R_, Left/Right, .L/.R, _L/_R, UpperArmL; or `marionette.sides`);
---warns when the rig has no pairs.
---@return Node
function Node:mirror() end
---Adds a named event at a clip time in seconds (e.g. a foot-down); reported each time the
---playhead crosses it, and written into the bake's `extras` and `run --json`'s `events`.
---@param name string
---@param seconds number
---@return Node
function Node:event(name, seconds) end

---A rig: the character (`marionette.rig()`), or another rig whose clips reach the character
---through `retarget`. Clips by name (`rig.walk`), joint names and morph target names.
---@class Rig
---@field joints string[] joint names, parent-first
---@field clips string[] clip names
---@field morphs string[] morph target (blend shape) names, each once (a name drives that target in every mesh that has it; `"Head_4.Surprised"` names one mesh's)
---@field source string where the rig came from
---@field [string] Node a clip player for the clip of that name
local Rig = {}
---A clip player for the named clip (same as `rig.name`).
---@param name string
---@return Node
function Rig:clip(name) end
---Checks a joint name and returns it (errors name the script line).
---@param name string
---@return string
function Rig:joint(name) end
---The character's own spring bones, as its file carries them (a VRM avatar's
---`VRMC_springBone`): one post operation per spring, with the file's settings per joint and the
---colliders of its groups, to put in `post = { ... }`. A rig without springs gives an empty list
---and a warning; only the character's rig has them.
---@param opts? { weight?: Weight, mask?: Mask }
---@return PostOp[]
function Rig:springs(opts) end

---@class SidesDef
---@field left? string a name pattern for left joints (with `right`): "armLf" pairs with "armRt"
---@field right? string the matching pattern for right joints
---@field pairs? table<string, string> explicit pairs, left name = right name

---@class marionette
marionette = {}
---Tells which joints are left and right when the rig's names follow no known convention
---(`L_`/`R_`, `Left`/`Right`, `_L`/`_R`, `.L`/`.R`, `UpperArmL`): used by `mask.side` and mirroring.
---@param def SidesDef
---@return integer pairs how many pairs were added
function marionette.sides(def) end
---`marionette.rig()` is the character being animated: `--rig`, else the file of the script's
---first `marionette.rig(file)`, else the default rig. `marionette.rig("other.glb")` naming
---another file gives that rig as a source: its clips play on the character through `retarget`.
---Files are relative to the script and must be regular files inside the project folder (`..`,
---absolute paths and links leading out are refused; `MARIONETTE_ALLOW_READ` lists trusted
---folders); each is imported once. A file is `.glb`, `.gltf`, `.bvh` (a skeleton and one clip,
---named after the file) or `.fbx` (every animation stack a clip).
---@param path? string
---@param opts? RigOpts
---@return Rig
function marionette.rig(path, opts) end

---Options of `marionette.rig(path, opts)`.
---@class RigOpts
---@field unit? "m"|"cm"|"mm"|"in" the length unit of a BVH's numbers (default: chosen from the body's height, with a note), or an FBX's in place of the one it declares
---@type string
marionette.version = ""

---A parameter declaration (see `params`).
---@class ParamDecl

---A float parameter clamped to [min, max].
---@param default? number 0 when absent
---@param min? number
---@param max? number
---@return ParamDecl
function float(default, min, max) end
---A flag.
---@param default? boolean
---@return ParamDecl
function bool(default) end
---A one-frame event, consumed by the transition it fires; a trigger that fires no transition
---in its frame is dropped at the end of that frame (it is not kept for later).
---@return ParamDecl
function trigger() end
---A point or direction (model space).
---@param x? number 0 when absent
---@param y? number 0 when absent
---@param z? number 0 when absent
---@return ParamDecl
function vec3(x, y, z) end
---Declares parameters: `params { speed = float(0, 0, 6), jump = trigger() }`.
---@param decls table<string, ParamDecl|number|boolean>
function params(decls) end

---@class BlendOptions
---@field sync? boolean keep the members' phases matched (feet stay in step); the shared cycle lasts the weight-blended members' cycle durations, so the cadence changes smoothly

---Weighted blend of inputs: `blend { {rig.walk, 0.7}, {rig.run, "run_amount"} }`.
---@param inputs {[1]: Node, [2]: Weight}[]
---@return Node
function blend(inputs) end
---1D blend space over a float parameter: `blend1d("speed", { {0, rig.idle}, {1.4, rig.walk} })`.
---@param param string
---@param points {[1]: number, [2]: Node}[]
---@param opts? BlendOptions
---@return Node
function blend1d(param, points, opts) end
---2D blend space (triangulated, clamped to the hull): `{ {x, y, node}, ... }`.
---@param x string
---@param y string
---@param points {[1]: number, [2]: number, [3]: Node}[]
---@param opts? BlendOptions
---@return Node
function blend2d(x, y, points, opts) end

---@class AdditiveOptions
---@field weight? Weight
---@field reference? Node a clip whose pose is subtracted (default: the additive clip's first frame)

---`base + weight * (add - reference)`.
---@param base Node
---@param add Node
---@param opts? AdditiveOptions
---@return Node
function additive(base, add, opts) end

---@class Layer
---@field [1] Node the layer's node
---@field mask? Mask which joints it affects (default: all)
---@field weight? Weight 0..1, or a float parameter's name
---@field additive? boolean add instead of blend

---A base pose with layers over it, in order: `layer(body, { rig.wave, mask = mask.subtree("R_clavicle") })`.
---@param base Node
---@param ... Layer
---@return Node
function layer(base, ...) end
---Swaps left and right of a node.
---@param node Node
---@return Node
function mirror(node) end
---Runs a node's time in whole steps of 1/fps seconds, so its pose (and root motion and events)
---holds between steps: `stepped(rig.walk, 12)` is animation on twos.
---@param node Node
---@param fps Weight steps a second, above 0, or a float parameter's name (at 0 or below: continuous)
---@return Node
function stepped(node, fps) end
---Options of `warp` (an unknown key is an error).
---@class WarpOptions
---@field target string a vec3 parameter: where the character should stand when the window ends (world metres, its start the origin, as `run` reports; it may move)
---@field window (number|string)[] {from, to}: seconds of the node's own time (since its input started) over which its root motion bends, or the names of markers of the clip it plays (`rig.jump:event("land", 0.7)`)
---@field mode? "skew" the only mode: the gap to the target is added over the window's remaining time, step by step

---Motion warping: bends the node's root motion over a window so a jump or a vault lands on a
---target that may move (Unreal's skew warp). Needs root motion in the graph (`root_motion =
---"ground"` closes the gap on the ground plane, `"whole"` in height too). Outside the window the
---motion is the node's own.
---`warp(rig.jump, { target = "landing", window = { 0.2, 0.7 } })`.
---@param node Node
---@param opts WarpOptions
---@return Node
function warp(node, opts) end

---A run of the character's joints driven by a run of the source's of another length:
---`{ "spine_01", "spine_02", "chest", from = { "Abdomen", "Torso_1" } }`.
---@class RetargetChain
---@field from string[] the source chain's joints, top first
---@field [integer] string the character's joints, top first

---@class RetargetOptions
---@field from? Rig the source rig (default: the rig whose clips `source` plays)
---@field map? "auto"|table<string, string> character joint = source joint; "auto" (the default) proposes one (`marionette retarget-map` prints it)
---@field chains? RetargetChain[] chains of different lengths
---@field rest? "auto"|"rest"|"tpose" what both rigs are aligned in: "auto" (default) each rig's rest, or a T-pose made from each when the rests differ by more than 15 degrees at a limb; "rest" or "tpose" to choose
---@field scale? number|number[] translation scale, or {x, y, z}; default: the ratio of leg lengths
---@field ik? boolean|"feet"|"hands" which ends reach the source's, scaled: "feet" (default), true (feet and hands), "hands" or false

---Puts a node of another rig (a clip, or any subgraph of it) on the character: rotations
---relative to each rig's rest, root and hips translation scaled, chains spread, feet and hands
---placed by IK. `retarget(robot.Walking, { from = robot })`.
---@param source Node
---@param opts? RetargetOptions
---@return Node
function retarget(source, opts) end

---Per-joint weights 0..1, and per morph target: a rule that sets a joint sets the morph targets
---of the meshes that follow it (`mask.subtree("neck")` covers the face). Combine with `+` (max),
---`-` (remove) and `* k` (scale).
---@class Mask
---@operator add(Mask): Mask
---@operator sub(Mask): Mask
---@operator mul(number): Mask
local Mask = {}
---The mask's weight for a joint, or for a morph target (`"smile"`, `"face.smile"`).
---@param joint string
---@return number
function Mask:weight(joint) end

mask = {}
---A joint and everything below it.
---@param joint string
---@param weight? number
---@return Mask
function mask.subtree(joint, weight) end
---Listed joints: `mask.joints { "head", neck = 0.5 }`.
---@param joints table
---@return Mask
function mask.joints(joints) end
---Every joint of one side, from L_/R_, Left/Right, .L/.R, _L/_R, UpperArmL names (or
---`marionette.sides`); warns when none is found.
---@param side "left"|"right"
---@return Mask
function mask.side(side) end
---Every joint and morph target.
---@param weight? number
---@return Mask
function mask.all(weight) end
---Morph targets only: a target name (in every mesh that has it), `"mesh.target"`, a mesh's name
---(all its targets), or a list of them.
---@param targets string|string[]
---@param weight? number
---@return Mask
function mask.morphs(targets, weight) end

---Parameter values and state seen by a Lua predicate (`when = function(p) ... end`).
---@class PredicateContext
---@field state string current state
---@field state_time number seconds in the current state
---@field [string] number|boolean|number[] parameter values by name

---A transition: `{ "from", "to", on = "jump", blend = 0.15, curve = "smoothstep" }`; from may be
---"*" (any state, but never from a state to itself). Transitions are checked in order, at most one
---fires per frame. While a transition runs, one from its target (or "*") may interrupt it: the
---blended pose at that moment is frozen and the new target blends in from it. Unknown keys are errors.
---@class TransitionDef
---@field [1] string source state, or "*" for any
---@field [2] string target state
---@field on? string fire when this trigger is set
---@field when? string|table|fun(p: PredicateContext): boolean "speed > 2 and not crouch", { speed = {">", 2} }, or a function
---@field at_end? boolean fire when the source clip ends
---@field exit_time? number fire at this normalised time of the source (0..1)
---@field blend? number blend seconds (default 0.2)
---@field curve? Curve weight curve (name, {x1, y1, x2, y2} bezier, or a function sampled at load)
---@field source? "frozen"|"live" outgoing pose frozen at the switch, or still playing (default "live"; a state to itself always freezes)
---@field mode? "crossfade"|"inertial" "inertial": no crossfade, the target plays at once and the outgoing pose's difference decays to zero over `blend`, smooth in position and velocity, at the cost of one pose (takes no curve or source; default "crossfade")

---A state's event: `{"enter", "takeoff"}` (in the frame a transition enters the state; the start
---state is not entered at time 0), `{"exit", "landed"}` (in the frame a transition leaves it) or
---`{0.3, "apex"}` (when the time since it was entered crosses 0.3 s, once per entry). Reported
---like clip events: the bake's `extras` and `run --json`'s `events` (with `state` and `state_time`).
---@class StateEventDef
---@field [1] "enter"|"exit"|number when it fires
---@field [2] string event name

---@class StateMachineDef
---@field start? string first state (default: the first transition's source)
---@field states table<string, Node> states by name (any name, `start` and `transitions` included)
---@field transitions? TransitionDef[]
---@field events? table<string, StateEventDef[]> events by state name: `{ jump = { {"enter", "takeoff"}, {0.3, "apex"} } }`

---A state machine; states are nodes: `state_machine { start = "move", states = { move = ..., jump = ... }, transitions = { ... } }`.
---@param def StateMachineDef
---@return Node
function state_machine(def) end

---A clip key: `{ t, rotation = {x, y, z}, translation = {x, y, z} }` (degrees / metres,
---relative to the rest pose).
---@class ClipKey
---@field [1] number time in seconds
---@field rotation? Vec3Like
---@field translation? Vec3Like

---Builds a clip from keys (linear) and returns a player for it; it also joins the rig.
---@param name string
---@param joints table<string, ClipKey[]>
---@return Node
function clip(name, joints) end

---A declarative post-process operation, evaluated in Rust every frame.
---@class PostOp

---Options of `ik.*`, `adjust.*` and the `pose:` methods: the same keys with the same meaning
---everywhere (an unknown key is an error). `pose:` methods take constants only (no parameter names).
---@class IkOptions
---@field weight? Weight 0..1 (default 1), or a float parameter's name
---@field limit? number look_at: largest turn in degrees (default 180)
---@field axis? string|Vec3Like look_at: the joint's local aim axis (default "z")
---@field up? string|Vec3Like look_at: the joint's local up axis (default "y")
---@field pole? string|Vec3Like two_bone (required): a model-space POINT (not a direction) the elbow/knee bends towards, or a vec3 parameter's name
---@field space? "local"|"model" rotate/translate: space of the value (default "local")

ik = {}
---Aims a joint at a target (a vec3 parameter's name or a model-space point).
---@param joint string
---@param target string|Vec3Like
---@param opts? IkOptions
---@return PostOp
function ik.look_at(joint, target, opts) end
---Two-bone IK: the tip's parent and grandparent bend so the tip reaches the target. The tip
---must end a three-joint chain (it has a parent and a grandparent); `opts.pole` is required.
---@param tip string
---@param target string|Vec3Like
---@param opts IkOptions
---@return PostOp
function ik.two_bone(tip, target, opts) end

---Options of `ik.foot_lock` (an unknown key is an error).
---@class FootLockOptions
---@field release? number seconds the hold takes to fade back to the animation after a contact (default 0.1)
---@field height? number highest world height of a planted foot, metres (default: its rest height + 0.04)
---@field speed? number highest speed of a planted foot, m/s (default 0.35; a held foot lets go at twice this)
---@field pole? string|Vec3Like a model-space point every knee bends towards (default: the plane the animation bends it in)
---@field weight? Weight 0..1 (default 1), or a float parameter's name

---Foot lock: while a foot is planted (low and slow) it stays over the ground where its contact
---began, in world space with root motion included, by two-bone IK on the leg above it; it fades
---back to the animation when the contact ends. Each foot must end a three-joint chain.
---`ik.foot_lock({ "L_foot", "R_foot" })`.
---@param feet string[]
---@param opts? FootLockOptions
---@return PostOp
function ik.foot_lock(feet, opts) end
---Options of `ik.chain` (an unknown key is an error).
---@class ChainOptions
---@field solver? "fabrik"|"ccd" the solver (default "fabrik": within 0.1 mm of any reachable target; CCD crawls where the chain must fold or straighten)
---@field iterations? integer most iterations (default 100 for FABRIK, 200 for CCD; both stop as soon as the tip is within the tolerance)
---@field tolerance? number metres the tip may stop from the target (default 0.00005)
---@field limits? number|table<string, number> largest turn of each joint away from its animated rotation, degrees: one number for every joint, or { joint = degrees }
---@field pole? string|Vec3Like a model-space point, vec3 parameter or joint the chain bends towards (it turns about its root-to-tip line)
---@field stretch? boolean scale the bones so an unreachable target is reached (default false: the chain straightens towards it)
---@field weight? Weight 0..1 (default 1), or a float parameter's name
---@field mask? Mask per joint, how much of the operation's change shows (0 keeps the pose from before it)

---Chain IK of any length (spines, tails, tentacles, fingers): the joints from `root` down to
---`tip` turn so the tip reaches `target` (a model-space point, a vec3 parameter's name or a
---joint's name), keeping bone lengths and the animation's twist. `root` must be an ancestor of `tip`.
---`ik.chain("tail_01", "tail_06", "tail_target", { limits = 30 })`.
---@param root string
---@param tip string
---@param target string|Vec3Like
---@param opts? ChainOptions
---@return PostOp
function ik.chain(root, tip, target, opts) end
---Lays the chain from `root` to `tip` along the curve through the root and `points` (each a
---model-space point, a vec3 parameter or a joint; a centripetal Catmull-Rom spline), bone
---lengths kept; past the curve's end the chain goes on along its last direction.
---@param root string
---@param tip string
---@param points (string|Vec3Like)[]
---@param opts? { weight?: Weight, mask?: Mask }
---@return PostOp
function ik.spline(root, tip, points, opts) end
---Deprecated alias of `adjust.rotate` (rotate is not IK).
---@deprecated
---@param joint string
---@param degrees Vec3Like
---@param opts? IkOptions
---@return PostOp
function ik.rotate(joint, degrees, opts) end
---Deprecated alias of `adjust.translate` (translate is not IK).
---@deprecated
---@param joint string
---@param offset Vec3Like
---@param opts? IkOptions
---@return PostOp
function ik.translate(joint, offset, opts) end

---Options of `constrain.aim` and `constrain.multi_aim` (an unknown key is an error).
---@class AimOptions
---@field axis? string|Vec3Like the joint's local axis that points at the target (default "z")
---@field up? string|Vec3Like the joint's local axis turned towards world_up or up_joint (default "y")
---@field world_up? string|Vec3Like model-space direction the up axis turns towards (default "y")
---@field up_joint? string a joint the up axis turns towards instead
---@field limit? number largest turn away from the animated pose, degrees (default 180)
---@field limits? { x?: number[], y?: number[], z?: number[] } per-axis ranges of the turn, {min, max} degrees (XYZ Euler in the joint's frame)
---@field weight? Weight 0..1 (default 1), or a float parameter's name
---@field mask? Mask per joint, how much of the operation's change shows (0 keeps the pose from before it)

---Options of `constrain.copy`.
---@class CopyOptions
---@field channel? "rotation"|"position"|"scale"|"all" what is copied (default "rotation")
---@field space? "model"|"world"|"local" where it is copied (default "model"; "world" is the same for joints of one character)
---@field offset? boolean keep the offset the two had at rest (default false)
---@field mix? "replace"|"add" take the source's value, or add its change from rest (default "replace")
---@field weight? Weight 0..1 (default 1), or a float parameter's name
---@field mask? Mask per joint, how much of the operation's change shows (0 keeps the pose from before it)

---Options of `constrain.limit`: at least one of cone, twist and speed.
---@class LimitOptions
---@field cone? number largest swing away from the rest rotation, degrees
---@field twist? number[] {min, max} twist about the bone axis away from rest, degrees
---@field speed? number largest angular speed, degrees per second
---@field axis? string|Vec3Like the local twist axis (default: towards the joint's first child)
---@field weight? Weight 0..1 (default 1), or a float parameter's name
---@field mask? Mask per joint, how much of the operation's change shows (0 keeps the pose from before it)

---Constraints, evaluated in Rust every frame (in `post = { ... }`, in order).
constrain = {}
---Aims a joint's axis at a target: a model-space point, a vec3 parameter's name or a joint's name.
---@param joint string
---@param target string|Vec3Like
---@param opts? AimOptions
---@return PostOp
function constrain.aim(joint, target, opts) end
---Aims a joint at several targets, each `{ target, weight }` (a number or a float parameter's
---name); the aimed rotations are averaged by weight (weights summing below 1 leave the rest on the animation).
---@param joint string
---@param targets table[]
---@param opts? AimOptions
---@return PostOp
function constrain.multi_aim(joint, targets, opts) end
---Copies another joint's rotation, position or scale onto a joint.
---@param joint string
---@param source string
---@param opts? CopyOptions
---@return PostOp
function constrain.copy(joint, source, opts) end
---The joint follows where `source` would carry it (their rest offset) with a lag: an
---exponential approach with time constant `lag` seconds (default 0.1), in world space, so it
---trails behind when the character moves. `position_lag` (seconds) lets its position lag too
---(the bone then stretches); without it the joint stays on its parent.
---@param joint string
---@param source string
---@param opts? { lag?: number, position_lag?: number, weight?: Weight, mask?: Mask }
---@return PostOp
function constrain.damped(joint, source, opts) end
---Spreads a joint's twist (about its bone axis, away from rest) over twist bones so the skin
---does not candy-wrap: twist joint k gets weights[k] of it (default 1/(n+1), 2/(n+1), ...);
---`remove = true` takes what was given away off the joint.
---@param joint string
---@param twist_joints string[]
---@param opts? { axis?: string|Vec3Like, weights?: number[], remove?: boolean, weight?: Weight, mask?: Mask }
---@return PostOp
function constrain.twist(joint, twist_joints, opts) end
---Clamps a joint's rotation away from its rest to a cone and a twist range, and its angular speed.
---@param joint string
---@param opts LimitOptions
---@return PostOp
function constrain.limit(joint, opts) end

---Options of `spring` (an unknown key is an error).
---@class SpringOptions
---@field stiffness? number|string natural frequency in Hz, 0..60 (default 2): how fast a joint returns to its animated pose; or a float parameter's name
---@field damping? number|string damping ratio, 0..10 (default 0.5; 1 = critical); or a float parameter's name
---@field gravity? number|Vec3Like m/s^2 downwards (default 0), or a world vector
---@field radius? number each joint's radius against the colliders, metres (default 0.02)
---@field colliders? Collider[] sphere(...) and capsule(...)
---@field weight? Weight 0..1 (default 1), or a float parameter's name
---@field mask? Mask per joint, how much of the operation's change shows (0 keeps the pose from before it)

---A collider for `spring`.
---@class Collider

---Spring bones (secondary motion: hair, tails, ears, cloth strips): each joint's tail is pulled
---towards where the animation puts it by a damped spring, under gravity, kept out of the
---colliders; the joints turn to follow (never stretch). Simulated in world space at 240 steps a
---second whatever the frame rate, so a bake equals `run`. `joints` is a chain (each the child of
---the one before) or its first joint's name (it and its descendants while each has one child; a joint
---with several children is an error).
---@param joints string|string[]
---@param opts? SpringOptions
---@return PostOp
function spring(joints, opts) end
---A sphere collider on a joint: `radius` metres, centred at `offset` in the joint's frame.
---@param joint string
---@param radius number
---@param offset? Vec3Like
---@return Collider
function sphere(joint, radius, offset) end
---A capsule collider on a joint: the points within `radius` metres of the segment from `from`
---to `to` (in the joint's frame).
---@param joint string
---@param radius number
---@param from Vec3Like
---@param to Vec3Like
---@return Collider
function capsule(joint, radius, from, to) end

---Options of `morph.set`.
---@class MorphOptions
---@field weight? Weight 0..1 (default 1): blend from the animated weight to the value

---Morph targets (blend shapes), set in Rust every frame.
morph = {}
---Sets a morph target's weight: a constant in 0..1 (outside is an error), or a float parameter's
---name, whose value is clamped to 0..1, so takes key it like any parameter. `target` is a target name (in every mesh that has it),
---`"mesh.target"`, or a mesh's name (all its targets); unknown names are errors with the
---closest name.
---@param target string
---@param value Weight
---@param opts? MorphOptions
---@return PostOp
function morph.set(target, value, opts) end

---Direct joint adjustments, evaluated in Rust every frame.
adjust = {}
---Adds an XYZ rotation in degrees.
---@param joint string
---@param degrees Vec3Like
---@param opts? IkOptions
---@return PostOp
function adjust.rotate(joint, degrees, opts) end
---Adds an offset in metres.
---@param joint string
---@param offset Vec3Like
---@param opts? IkOptions
---@return PostOp
function adjust.translate(joint, offset, opts) end

---The pose inside `post(pose, ctx)`; every method runs in Rust.
---@class Pose
local Pose = {}
---@param joint string
---@param target Vec3Like model-space point
---@param opts? IkOptions
function Pose:look_at(joint, target, opts) end
---Like `ik.two_bone`: the same chain check, `opts.pole` required.
---@param tip string
---@param target Vec3Like
---@param opts IkOptions
function Pose:two_bone_ik(tip, target, opts) end
---@param joint string
---@param degrees Vec3Like
---@param opts? IkOptions
function Pose:rotate(joint, degrees, opts) end
---@param joint string
---@param offset Vec3Like
---@param opts? IkOptions
function Pose:translate(joint, offset, opts) end
---@param joint string
---@param position Vec3Like
---@param opts? IkOptions
function Pose:set_translation(joint, position, opts) end
---Model-space position of a joint.
---@param joint string
---@return {x: number, y: number, z: number, [1]: number, [2]: number, [3]: number}
function Pose:position(joint) end
---Sets a morph target's weight (clamped to 0..1; NaN is an error), as `morph.set` names it.
---@param target string
---@param weight number
function Pose:set_morph(target, weight) end
---A morph target's weight in the pose (for a name several meshes share, the first mesh's:
---qualify it, `"Head_4.Angry"`, to read another; a mesh's name is an error).
---@param target string
---@return number
function Pose:morph(target) end

---What `post` sees each frame: time and every parameter by name (reading any other field is an error).
---@class PostContext
---@field time number seconds
---@field [string] number|boolean|{x: number, y: number, z: number}

---Keys of one parameter: float `{ {t, v}, ..., step = true? }`; bool `{ {t, true} }`;
---vec3 `{ {t, {x, y, z}} }`; trigger `{ t1, t2 }`. Before the first key the parameter holds the
---first key's value; after the last key, the last one. A float or vec3 key may ease:
---`{ t, v, ease = "flat" }` (see `Ease`), and a float key may give its slopes (value per
---second) instead: `{ t, v, slope_in = a, slope_out = b }` (one alone is both sides').
---`step = true` is the shorthand for every key `ease = "step"`.
---@alias TakeKeys table

---A key's tangent: "auto" smooth through the key (flat at a peak, a dip or an end: never
---overshoots), "flat" slope 0, "linear" straight lines to its neighbours (the default),
---"step" hold until the next key.
---@alias Ease "auto"|"flat"|"linear"|"step"

---A take's definition: duration, fps, markers and keys per parameter name (next to the options,
---or inside `keys = { ... }`, which a parameter named `duration`, `fps`, `keys` or `markers` needs).
---@class TakeDef
---@field duration number seconds (> 0; duration × fps + 1 is at most 1,000,000 frames)
---@field fps? number steps per second, 1 to 1000 (default 60)
---@field markers? {[1]: number, [2]: string}[] named times `{ {0.5, "contact_l"} }`, into the bake's extras
---@field keys? table<string, TakeKeys> keys per parameter name
---@field assert_motion? MotionAssertDef this take's motion assertions (replacing the global `assert_motion`)
---@field passes? BakePassList this take's bake passes (replacing the graph's `passes`; `{}`: none)
---@field [string] TakeKeys|number|table keys per parameter name (numbers are the options above)

---Adds takes: `takes { walk_to_run = { duration = 4, speed = { {0, 0}, {3, 4} }, jump = { 2 } } }`.
---@param defs table<string, TakeDef>
function takes(defs) end

---What part of the root joint's motion is extracted and accumulated as the character's
---movement through the world (measured in world space, the rig's armature included). `run`,
---`render` and `bake` put the accumulated motion back on the root joints, so the character is
---where it walked to; `run --in-place` / `bake --in-place` leave it out.
---@alias RootMotionMode
---| "off"    # the default: nothing extracted, the root joint keeps all its motion
---| "ground" # travel on the ground plane (world X, Z) and turning about world Y; height, pitch and roll stay
---| "whole"  # the root joint's whole translation and rotation

---A planted foot's thresholds in `assert_motion`'s `contacts`.
---@class ContactRuleDef
---@field height? number highest world height, metres (default: the joint's rest height + 0.04, or the lowest it goes + 0.04 when it never comes that low)
---@field speed? number highest speed, m/s (default 0.35)

---An angle limit in `assert_motion`'s `limits`: degrees of the joint's rotation away from its rest.
---@class AngleLimitDef
---@field min? number default 0
---@field max? number default 180

---@class GroundDef
---@field feet? string[] joints kept above the ground (world height 0; default: the measured feet)
---@field max_penetration_mm? number default 10

---What every frame of every take must keep (`assert_motion { ... }`, or `assert_motion = { ... }`
---in one take, which replaces it there). `check` and `bake` fail (exit 1; bake writes nothing)
---naming the take, time, frame, joint, value and limit.
---@class MotionAssertDef
---@field foot_slide_mm? number largest travel of a planted foot over one contact, mm
---@field feet? string[] the feet measured (default: joints named like a foot or ankle, low in the rest pose)
---@field contacts? table<string, ContactRuleDef> contact thresholds by joint
---@field no_nan? boolean fail on a number that is not finite (default true)
---@field max_joint_speed? number|table|false degrees/s for every joint (default 1500), `{ 1500, head = 600 }` with per-joint limits, or false
---@field limits? table<string, AngleLimitDef> degrees away from rest, by joint
---@field ground? GroundDef joints that must not go under the ground

---Motion assertions checked on every frame of every take by `check` and `bake`.
---@param def MotionAssertDef
function assert_motion(def) end

---@class GraphDef
---@field root Node the output node
---@field post? (PostOp|fun(pose: Pose, ctx: PostContext))[]|fun(pose: Pose, ctx: PostContext) Rust ops (no Lua per frame), a Lua function run each frame, or both: a list of ops with the function last
---@field takes? table<string, TakeDef>
---@field root_motion? RootMotionMode what part of the root joint's motion moves the whole character (default "off")
---@field passes? BakePassList bake passes run over every take's frames (a take's own `passes` replace them)

---Finishes the script: `return graph { root = ..., post = ..., takes = ... }`.
---@param def GraphDef
---@return userdata
function graph(def) end

---A bake pass made by `pass.*`: runs over a whole take's frames before anything shows or bakes them.
---@class BakePass

---A take's frames as a Lua bake pass gets them: local transforms of every joint at every frame
---(the root joints carrying the root motion, as walked), read and written in place. Frames are
---1..count; a joint is a name or the index `frames:joint(name)` gives. Valid while its pass runs.
---@class Frames
---@field count integer how many frames (the take's steps + 1)
---@field fps number frames per second
---@field joints integer joints per frame
local Frames = {}
---The index of joint `name` (1-based), to pass instead of the name in a loop.
---@param name string
---@return integer
function Frames:joint(name) end
---The name of joint `joint`.
---@param joint string|integer
---@return string
function Frames:name(joint) end
---The time of frame `frame`, seconds.
---@param frame integer
---@return number
function Frames:time(frame) end
---A joint's local rotation at a frame, as a quaternion `x, y, z, w`.
---@param frame integer
---@param joint string|integer
---@return number x, number y, number z, number w
function Frames:rotation(frame, joint) end
---Sets a joint's local rotation at a frame (normalised; every number finite).
---@param frame integer
---@param joint string|integer
---@param x number
---@param y number
---@param z number
---@param w number
function Frames:set_rotation(frame, joint, x, y, z, w) end
---A joint's local translation at a frame, metres.
---@param frame integer
---@param joint string|integer
---@return number x, number y, number z
function Frames:translation(frame, joint) end
---Sets a joint's local translation at a frame (every number finite).
---@param frame integer
---@param joint string|integer
---@param x number
---@param y number
---@param z number
function Frames:set_translation(frame, joint, x, y, z) end
---A joint's local scale at a frame.
---@param frame integer
---@param joint string|integer
---@return number x, number y, number z
function Frames:scale(frame, joint) end
---Sets a joint's local scale at a frame (every number finite).
---@param frame integer
---@param joint string|integer
---@param x number
---@param y number
---@param z number
function Frames:set_scale(frame, joint, x, y, z) end

---`passes = { ... }`: built-in passes and Lua `function(frames)` passes, run in order.
---@alias BakePassList (BakePass|fun(frames: Frames))[]

---Options of `pass.loop_close`.
---@class LoopCloseOptions
---@field blend? number seconds before the end over which the seam's difference is spread (default 0.2)

---Options of `pass.root_extract` (give `from`, `drop` or both).
---@class RootExtractOptions
---@field from? string the joint (the hips) whose ground travel and turning move onto its root joint
---@field drop? boolean then remove the ground travel from the root joints: the take stays in place (default false)

---Options of `pass.foot_lock`.
---@class FootLockPassOptions
---@field feet? string[] default: joints named like a foot or ankle, low in the rest pose
---@field blend? number seconds the hold eases in before a contact and out after it (default 0.1)
---@field height? number highest world height of a planted foot, metres (default: its rest height + 0.04, or the lowest it goes + 0.04 when it never comes that low)
---@field speed? number highest speed of a planted foot, m/s (default 0.35; a contact lasts while under twice this)

---Options of `pass.smooth`.
---@class SmoothOptions
---@field window? number seconds the average spans, centred (default 0.1)
---@field joints? string[] default: every joint
---@field channel? "rotation"|"translation"|"both" default "rotation"

---Options of `pass.despike`.
---@class DespikeOptions
---@field max_speed? number degrees/s a joint may turn (default 1500)
---@field frames? integer the longest run of frames repaired (default 4; longer runs are motion)
---@field joints? string[] default: every joint

---Bake passes: `passes = { pass.despike {}, pass.foot_lock {}, function(frames) ... end }` in
---`graph { }` or a take. They run wherever a take plays (`run`, `check`, `render`, the editor,
---`bake`); `--no-passes` and the editor's Passes toggle show the raw graph.
pass = {}
---The last frame made equal to the first, the difference spread over the last `blend` seconds;
---the root joints keep their ground travel and turning.
---@param opts? LoopCloseOptions
---@return BakePass
function pass.loop_close(opts) end
---A joint's ground travel moved onto its root joint (`from`), and/or dropped (`drop = true`).
---@param opts RootExtractOptions
---@return BakePass
function pass.root_extract(opts) end
---Planted feet held at their contact's mean ground position, knowing what comes next: eased in
---before the contact and out after it; the hips lowered where a straight leg cannot reach.
---@param opts? FootLockPassOptions
---@return BakePass
function pass.foot_lock(opts) end
---A centred moving average over time (the take's first and last frames kept).
---@param opts? SmoothOptions
---@return BakePass
function pass.smooth(opts) end
---A capture's spikes (a joint turning faster than `max_speed` and back within `frames` frames)
---replaced by its neighbours' slerp; each repair is listed.
---@param opts? DespikeOptions
---@return BakePass
function pass.despike(opts) end
