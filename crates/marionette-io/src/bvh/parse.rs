//! The BVH grammar, read strictly: `HIERARCHY`, one or more `ROOT` joints with `OFFSET`,
//! `CHANNELS` and nested `JOINT` / `End Site` blocks, then `MOTION`, `Frames:`, `Frame Time:`
//! and the frames' numbers. Every error names the line. Nesting is read with an explicit
//! stack (a hostile file cannot overflow the call stack); nothing is allocated for frames the
//! file does not hold.

use glam::Vec3;

/// One of the six BVH channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChannelKind {
    /// `Xposition`, `Yposition`, `Zposition` (axis 0, 1, 2).
    Position(usize),
    /// `Xrotation`, `Yrotation`, `Zrotation` (axis 0, 1, 2), in degrees.
    Rotation(usize),
}

impl ChannelKind {
    fn parse(word: &str) -> Option<ChannelKind> {
        let lower = word.to_ascii_lowercase();
        let axis = match lower.as_bytes().first()? {
            b'x' => 0,
            b'y' => 1,
            b'z' => 2,
            _ => return None,
        };
        match &lower[1..] {
            "position" => Some(ChannelKind::Position(axis)),
            "rotation" => Some(ChannelKind::Rotation(axis)),
            _ => None,
        }
    }
}

/// A joint of the hierarchy (an End Site is a joint without channels, `end` set).
#[derive(Clone, Debug)]
pub(crate) struct BvhJoint {
    pub name: String,
    pub parent: Option<usize>,
    pub offset: Vec3,
    pub channels: Vec<ChannelKind>,
    /// Where its values start in a frame.
    pub first_value: usize,
    /// An `End Site`.
    pub end: bool,
    /// The line it is declared on.
    pub line: usize,
}

/// A parsed BVH file, in the file's units.
#[derive(Clone, Debug)]
pub(crate) struct BvhFile {
    pub joints: Vec<BvhJoint>,
    /// Seconds per frame.
    pub frame_time: f32,
    /// `frames × values_per_frame` numbers.
    pub values: Vec<f32>,
    pub values_per_frame: usize,
    pub frames: usize,
    pub warnings: Vec<String>,
}

/// A parse error: the line (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BvhFault {
    pub line: usize,
    pub message: String,
}

fn fault<T>(line: usize, message: impl Into<String>) -> Result<T, BvhFault> {
    Err(BvhFault {
        line,
        message: message.into(),
    })
}

/// The longest frame a BVH may declare, in seconds (a frame a minute long is not a capture).
const MAX_FRAME_TIME: f32 = 60.0;

/// The most joints a BVH may declare (a joint index is 16 bits).
const MAX_JOINTS: usize = u16::MAX as usize;

/// Words of the text with their line numbers.
struct Words<'a> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    current: std::vec::IntoIter<&'a str>,
    line: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        Words {
            lines: text.lines().enumerate().peekable(),
            current: Vec::new().into_iter(),
            line: 0,
        }
    }

    fn next(&mut self) -> Option<(&'a str, usize)> {
        loop {
            if let Some(w) = self.current.next() {
                return Some((w, self.line));
            }
            let (i, l) = self.lines.next()?;
            self.line = i + 1;
            self.current = l.split_whitespace().collect::<Vec<_>>().into_iter();
        }
    }

    /// The rest of the current line, joined by single spaces (a name with spaces), and whether
    /// it ended with the block's `{`.
    fn rest_of_line(&mut self) -> (String, bool) {
        let rest: Vec<&str> = self.current.by_ref().collect();
        let brace = rest.iter().position(|w| *w == "{");
        let (name, after) = rest.split_at(brace.unwrap_or(rest.len()));
        let name = name.join(" ");
        self.current = after
            .iter()
            .skip(1)
            .copied()
            .collect::<Vec<_>>()
            .into_iter();
        (name, brace.is_some())
    }

    fn expect(&mut self, what: &str, after: usize) -> Result<(&'a str, usize), BvhFault> {
        self.next().ok_or_else(|| BvhFault {
            line: after,
            message: format!("the file ends where {what} was expected"),
        })
    }

    fn number(&mut self, what: &str, after: usize) -> Result<(f32, usize), BvhFault> {
        let (w, line) = self.expect(what, after)?;
        match w.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok((v, line)),
            _ => fault(
                line,
                format!("{what} must be a finite number a 32-bit float holds, not '{w}'"),
            ),
        }
    }
}

/// Parses a BVH text.
pub(crate) fn parse(text: &str) -> Result<BvhFile, BvhFault> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // old Mac line ends (CR alone) count as lines too
    let unified;
    let text = if text.contains('\r') {
        unified = text.replace("\r\n", "\n").replace('\r', "\n");
        unified.as_str()
    } else {
        text
    };
    let mut w = Words::new(text);
    let (first, line) = w.expect("HIERARCHY", 1)?;
    if !first.eq_ignore_ascii_case("HIERARCHY") {
        let shown = if first.chars().all(|c| c.is_ascii_graphic()) && first.len() <= 40 {
            format!("not '{first}'")
        } else {
            "not with text (this looks like a binary file)".to_string()
        };
        return fault(
            line,
            format!("a BVH file starts with HIERARCHY, {shown}: is this a BVH file?"),
        );
    }
    let mut joints: Vec<BvhJoint> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut values_per_frame = 0usize;
    let mut last = line;
    loop {
        let Some((word, line)) = w.next() else {
            return fault(last, "the file ends before MOTION");
        };
        last = line;
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "root" | "joint" | "end" => {
                let end = lower == "end";
                if lower == "root" && !stack.is_empty() {
                    return fault(
                        line,
                        "ROOT inside a joint's braces (a '}' is missing above)",
                    );
                }
                if lower != "root" && stack.is_empty() {
                    return fault(line, format!("{word} outside a ROOT's braces"));
                }
                if let Some(&p) = stack.last() {
                    if joints[p].end {
                        return fault(line, "an End Site cannot have children");
                    }
                }
                let (rest, brace_seen) = w.rest_of_line();
                let name = if end {
                    let site = rest;
                    if !site.eq_ignore_ascii_case("site") {
                        return fault(line, format!("'End {site}': expected 'End Site'"));
                    }
                    let parent = stack.last().map_or("", |&p| joints[p].name.as_str());
                    format!("{parent}_End")
                } else {
                    let name = rest;
                    if name.is_empty() {
                        return fault(line, format!("{word} without a name"));
                    }
                    name
                };
                if joints.len() >= MAX_JOINTS {
                    return fault(line, format!("more than {MAX_JOINTS} joints"));
                }
                let bline = if brace_seen {
                    line
                } else {
                    let (brace, bline) = w.expect("'{'", line)?;
                    if brace != "{" {
                        return fault(
                            bline,
                            format!("expected '{{' after {word}, found '{brace}'"),
                        );
                    }
                    bline
                };
                joints.push(BvhJoint {
                    name,
                    parent: stack.last().copied(),
                    offset: Vec3::ZERO,
                    channels: Vec::new(),
                    first_value: values_per_frame,
                    end,
                    line,
                });
                stack.push(joints.len() - 1);
                let (off, oline) = w.expect("OFFSET", bline)?;
                if !off.eq_ignore_ascii_case("OFFSET") {
                    return fault(oline, format!("expected OFFSET, found '{off}'"));
                }
                let mut o = [0.0f32; 3];
                for v in &mut o {
                    *v = w.number("an OFFSET value", oline)?.0;
                }
                let j = joints.len() - 1;
                joints[j].offset = Vec3::from(o);
            }
            "channels" => {
                let Some(&j) = stack.last() else {
                    return fault(line, "CHANNELS outside a joint");
                };
                if joints[j].end {
                    return fault(line, "an End Site has no CHANNELS");
                }
                if !joints[j].channels.is_empty() {
                    return fault(
                        line,
                        format!("joint '{}' has CHANNELS twice", joints[j].name),
                    );
                }
                let (count, _) = w.expect("the channel count", line)?;
                let n = match count.parse::<usize>() {
                    Ok(n) if n <= 6 => n,
                    _ => {
                        return fault(
                            line,
                            format!("the channel count must be 0 to 6, not '{count}'"),
                        )
                    }
                };
                for _ in 0..n {
                    let (name, cline) = w.expect("a channel name", line)?;
                    let Some(kind) = ChannelKind::parse(name) else {
                        return fault(
                            cline,
                            format!(
                                "'{name}' is not a BVH channel (Xposition, Yposition, \
                                 Zposition, Xrotation, Yrotation, Zrotation)"
                            ),
                        );
                    };
                    if joints[j].channels.contains(&kind) {
                        return fault(cline, format!("channel '{name}' given twice"));
                    }
                    joints[j].channels.push(kind);
                }
                joints[j].first_value = values_per_frame;
                values_per_frame += n;
            }
            "}" => {
                if stack.pop().is_none() {
                    return fault(line, "'}' without a matching '{'");
                }
            }
            "offset" => return fault(line, "OFFSET outside a joint, or given twice"),
            "motion" => {
                if let Some(&j) = stack.last() {
                    return fault(
                        line,
                        format!(
                            "MOTION before joint '{}' (line {}) is closed: a '}}' is missing",
                            joints[j].name, joints[j].line
                        ),
                    );
                }
                if joints.is_empty() {
                    return fault(line, "the hierarchy has no ROOT");
                }
                break;
            }
            _ if ChannelKind::parse(word).is_some() => {
                return fault(
                    line,
                    format!(
                        "'{word}': more channel names than the CHANNELS count above declares \
                         (make the count match the names)"
                    ),
                )
            }
            _ => {
                return fault(
                    line,
                    format!(
                        "unexpected '{word}' (expected ROOT, JOINT, End Site, OFFSET, CHANNELS, \
                         '}}' or MOTION)"
                    ),
                )
            }
        }
    }
    let (frames, frame_time, mut warnings, fline) = motion_header(&mut w, last)?;
    // never trust the declared count for an allocation: the file's own words bound it
    let mut values = Vec::new();
    let mut count = 0usize;
    let mut frame_line = fline;
    let mut read_frames = 0usize;
    let wanted = frames.saturating_mul(values_per_frame);
    while count < wanted {
        let Some((word, line)) = w.next() else { break };
        if count.is_multiple_of(values_per_frame.max(1)) {
            frame_line = line;
        }
        match word.parse::<f32>() {
            Ok(v) if v.is_finite() => values.push(v),
            _ => {
                return fault(
                    line,
                    format!(
                        "frame {}: '{word}' is not a finite number a 32-bit float holds",
                        count / values_per_frame.max(1)
                    ),
                )
            }
        }
        count += 1;
        if count.is_multiple_of(values_per_frame.max(1)) {
            read_frames += 1;
        }
    }
    if read_frames < frames && values_per_frame > 0 {
        let complete = read_frames * values_per_frame;
        if count > complete {
            return fault(
                frame_line,
                format!(
                    "frame {read_frames} has {} of its {values_per_frame} values (the file ends \
                     inside it)",
                    count - complete
                ),
            );
        }
        warnings.push(format!(
            "'Frames: {frames}' but the file holds {read_frames} frames: {read_frames} read"
        ));
    }
    let frames = if values_per_frame == 0 {
        frames
    } else {
        read_frames
    };
    if let Some((extra, line)) = w.next() {
        warnings.push(format!(
            "line {line}: more numbers than 'Frames:' declares (from '{extra}'): ignored"
        ));
    }
    Ok(BvhFile {
        joints,
        frame_time,
        values,
        values_per_frame,
        frames,
        warnings,
    })
}

/// `Frames: N` and `Frame Time: T` after MOTION.
fn motion_header(
    w: &mut Words<'_>,
    after: usize,
) -> Result<(usize, f32, Vec<String>, usize), BvhFault> {
    let (word, line) = w.expect("'Frames:'", after)?;
    if !word.eq_ignore_ascii_case("Frames:") {
        return fault(
            line,
            format!("expected 'Frames:' after MOTION, found '{word}'"),
        );
    }
    let (n, nline) = w.expect("the frame count", line)?;
    let frames = n.parse::<usize>().or_else(|_| {
        fault(
            nline,
            format!("the frame count must be a whole number, not '{n}'"),
        )
    })?;
    let (a, aline) = w.expect("'Frame Time:'", nline)?;
    let (b, _) = w.expect("'Frame Time:'", aline)?;
    if !(a.eq_ignore_ascii_case("Frame") && b.eq_ignore_ascii_case("Time:")) {
        return fault(aline, format!("expected 'Frame Time:', found '{a} {b}'"));
    }
    let (t, tline) = w.number("the frame time", aline)?;
    if let Some(extra) = w.current.clone().next() {
        return fault(
            tline,
            format!("'{extra}' after the frame time: the line holds 'Frame Time:' and one number"),
        );
    }
    if t <= 0.0 || t > MAX_FRAME_TIME {
        return fault(
            tline,
            format!(
                "the frame time must be above 0 and at most {MAX_FRAME_TIME} seconds, not {t} \
                 (it is seconds per frame: 0.008333 for 120 fps)"
            ),
        );
    }
    let mut warnings = Vec::new();
    if frames == 0 {
        warnings.push("'Frames: 0': the file holds a skeleton and no motion".to_string());
    }
    Ok((frames, t, warnings, tline))
}
