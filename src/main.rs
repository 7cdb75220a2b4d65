//! The `marionette` command line: a thin dispatcher, one file per subcommand in `src/cli/`.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Marionette: scripting-driven skeletal animation over glTF characters.
#[derive(Parser)]
#[command(name = "marionette", version, about)]
struct Cli {
    /// What to do (with none: the editor on the bundled mannequin and locomotion script when
    /// a display is available, else a headless tour written to marionette-out/).
    #[command(subcommand)]
    command: Option<Command>,
    /// The length unit of BVH and FBX files the command reads (m, cm, mm, in): a BVH has none
    /// (default: chosen from the body's height, with a note), an FBX's header is overridden.
    #[arg(long, global = true, value_name = "UNIT")]
    unit: Option<marionette::io::Unit>,
}

/// The subcommands.
#[derive(Subcommand)]
enum Command {
    /// Show what a character or motion file (glTF, BVH, FBX) holds: skeleton, skins, meshes,
    /// clips and import warnings.
    Inspect(cli::inspect::Args),
    /// Print the pose of a file's joints (glTF, BVH, FBX) at a time of a clip (glTF semantics).
    Sample(cli::sample::Args),
    /// Regenerate the bundled mannequin (default: assets/mannequin.glb).
    Mannequin(cli::mannequin::Args),
    /// Bake clips (or takes) to glTF animations, key-reduced under a world-space tolerance.
    Bake(cli::bake::Args),
    /// Print the joint map proposed between two rigs (source, character) as a Lua table to
    /// edit: what `retarget(clip, { map = ... })` and `bake --retarget-to --map` take.
    RetargetMap(cli::retarget_map::Args),
    /// Evaluate a Lua script's graph at a time and print its states, node weights and morph
    /// weights (with --json, every joint's transform as well).
    Run(cli::run::Args),
    /// Load and validate a Lua script and evaluate every frame of its takes; `file:line` errors
    /// and a non-zero exit on failure.
    Check(cli::check::Args),
    /// Open the editor window on a script (default: the mannequin with scripts/locomotion.lua).
    Edit(cli::edit::Args),
    /// Render a model or a script's graph headlessly to a PNG (frame or contact sheet, with
    /// debug views).
    Render(cli::render::Args),
    /// Benchmarks users can run on their machine (`bench crowd`: ozz-animation's crowd
    /// workload, scalar and SoA paths side by side).
    Bench(cli::bench::Args),
}

fn main() -> ExitCode {
    // A reader that closes the pipe (`marionette run ... 2>&1 | head`) ends the process as it
    // ends any Unix tool, by SIGPIPE, instead of a panic in a print to the closed stream.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of a signal at start-up, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A long bake's large buffers (a channel's samples, a take's keys: megabytes each, made
    // and freed on worker threads) go to the OS and back whole: glibc would otherwise raise
    // its mmap threshold after the first one is freed and keep later ones in per-thread
    // arenas it cannot return (measured: a 4000 s take peaked at 723 MB, 623 MB with this).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: an allocator setting made at start-up, before any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
    let parsed = Cli::parse();
    if let Some(unit) = parsed.unit {
        marionette::io::units::set_command_line_unit(unit);
    }
    ensure_runtime_dir();
    let result = match parsed.command {
        None => no_command(),
        Some(Command::Edit(args)) => cli::edit::run(&args),
        Some(Command::Inspect(args)) => cli::inspect::run(&args),
        Some(Command::Sample(args)) => cli::sample::run(&args),
        Some(Command::Mannequin(args)) => cli::mannequin::run(&args),
        Some(Command::RetargetMap(args)) => cli::retarget_map::run(&args),
        Some(Command::Bake(args)) if args.manifest.is_some() => cli::batch::run(&args),
        Some(Command::Bake(args)) => cli::bake::run(&args),
        Some(Command::Run(args)) => cli::run::run(&args),
        Some(Command::Check(args)) => cli::check::run(&args),
        Some(Command::Render(args)) => cli::render::run(&args),
        Some(Command::Bench(args)) => cli::bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `marionette` alone: the editor when a display is available, else (one line saying so)
/// the headless tour.
fn no_command() -> anyhow::Result<()> {
    match marionette::editor::event_loop() {
        Ok(el) => {
            let args = cli::edit::Args {
                frames: 5,
                size: (1280, 720),
                ..Default::default()
            };
            let opts = cli::edit::options(&args)?;
            cli::edit::run_window(el, &args, opts)
        }
        Err(why) => {
            cli::print(&format!(
                "marionette: {why}: running the headless tour instead of the editor"
            ))?;
            cli::default_run::run()
        }
    }
}

/// Mesa's Vulkan and EGL drivers print "error: XDG_RUNTIME_DIR is invalid or not set" when the
/// variable is missing (containers, CI, ssh sessions); harmless, but it reads like our own error.
/// Give the process a private one before any thread or driver starts.
fn ensure_runtime_dir() {
    let usable = std::env::var_os("XDG_RUNTIME_DIR")
        .map(std::path::PathBuf::from)
        .is_some_and(|dir| dir.is_dir());
    if usable {
        return;
    }
    let dir = std::env::temp_dir().join(format!("marionette-runtime-{}", whoami()));
    if std::fs::create_dir_all(&dir).is_ok() {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        }
        // Called first thing in main, before any other thread exists.
        std::env::set_var("XDG_RUNTIME_DIR", &dir);
    }
}

/// A per-user suffix for the runtime folder (the user name, else "user").
fn whoami() -> String {
    std::env::var("USER")
        .ok()
        .filter(|u| {
            !u.is_empty()
                && u.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
        .unwrap_or_else(|| "user".to_string())
}
