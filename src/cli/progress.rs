//! What `bake` shows on stderr while it works, for takes that take over a second: a bar per
//! take while its frames are sampled, with the time left at the rate so far, then a line while
//! it is reduced, ended with the time that took.

use std::io::Write;
use std::time::{Duration, Instant};

use marionette::bake::BakeProgress;

/// The bar of the take being sampled, or the line of the take being reduced.
pub(super) struct Progress {
    quiet: bool,
    /// The take being sampled, when it started, and when the bar was last drawn.
    current: Option<(String, Instant, Option<Instant>)>,
    /// When the reduction of a take whose sampling showed a bar started.
    reducing: Option<Instant>,
}

impl Progress {
    pub(super) fn new(quiet: bool) -> Self {
        Self {
            quiet,
            current: None,
            reducing: None,
        }
    }

    /// Follows the bake: a bar per take, then its reduction's line.
    pub(super) fn update(&mut self, p: BakeProgress<'_>) {
        match p {
            BakeProgress::Sampling {
                take, done, total, ..
            } => self.sampling(take, done, total),
            BakeProgress::Reducing { take, .. } => {
                if self.finish() && !self.quiet {
                    eprint!("reducing {take} (fitting keys, measuring every joint) ...");
                    self.reducing = Some(Instant::now());
                }
            }
            _ => {
                self.finish();
            }
        }
    }

    fn sampling(&mut self, take: &str, done: usize, total: usize) {
        if self.quiet {
            return;
        }
        if self.current.as_ref().is_none_or(|(t, _, _)| t != take) {
            self.finish();
            self.current = Some((take.to_string(), Instant::now(), None));
        }
        let Some((_, start, last)) = &mut self.current else {
            return;
        };
        let now = Instant::now();
        if now - *start < Duration::from_secs(1) {
            return;
        }
        if last.is_some_and(|l| now - l < Duration::from_millis(100)) && done < total {
            return;
        }
        *last = Some(now);
        let width = 30;
        let filled = (done * width) / total.max(1);
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let spent = (now - *start).as_secs_f64();
        let left = spent * total.saturating_sub(done) as f64 / done.max(1) as f64;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\rsampling {take} [{bar}] {done}/{total} frames, {} left   ",
            duration_text(left)
        );
        let _ = err.flush();
    }

    /// Ends the current bar (a newline if one was drawn) or reduction line (with its time);
    /// true when a bar was drawn.
    pub(super) fn finish(&mut self) -> bool {
        if let Some(start) = self.reducing.take() {
            eprintln!(" {}", duration_text(start.elapsed().as_secs_f64()));
        }
        let drawn = matches!(self.current.take(), Some((_, _, Some(_))));
        if drawn {
            eprintln!();
        }
        drawn
    }
}

/// `seconds` as `12 s` or `3 min 05 s`.
fn duration_text(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {:02} s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Under a minute in seconds, above in minutes and seconds.
    #[test]
    fn durations() {
        assert_eq!(duration_text(12.4), "12 s");
        assert_eq!(duration_text(185.0), "3 min 05 s");
        assert_eq!(duration_text(-1.0), "0 s");
    }
}
