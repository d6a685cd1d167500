//! The chart of `kempelen bench --cpu z80|6502 --svg FILE`: every benched build's measured
//! figures (Kempelen-Z80, Kempelen-6502) beside the historical programs' ([`figures`](crate::figures)), each
//! point a measurement at its machine's clock, drawn with plotters' SVG backend. Four panels:
//! search speed against CPU clock (log-log), code size, RAM in use, RAM per ply. Measured
//! bars are blue, reported historical figures grey, estimates orange and labelled as such;
//! where a source gives a range, the bar's lighter part spans it. The historical programs
//! themselves, measured inside Kempelen (`kempelen bench --program`, the data file
//! [`programs::DATA_PATH`]), are squares in the speed panel, one a
//! level, labelled "measured" beside the documents' figures.

use kempelen_roms::bench::PortBench;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::figures::{Figure, HISTORICAL, Historical};
use crate::programs;

const MEASURED: RGBColor = RGBColor(31, 119, 180);
/// Colours of the measured builds in the speed panel, in the order benched.
const BUILDS: [RGBColor; 2] = [MEASURED, RGBColor(20, 160, 170)];
const REPORTED: RGBColor = RGBColor(110, 110, 110);
const ESTIMATE: RGBColor = RGBColor(230, 120, 10);
const FONT: &str = "sans-serif";

/// How sure a figure is.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Measured,
    Reported,
    Estimate,
}

impl Kind {
    fn of(h: &Historical) -> Kind {
        if h.estimate {
            Kind::Estimate
        } else {
            Kind::Reported
        }
    }

    fn color(self) -> RGBColor {
        match self {
            Kind::Measured => MEASURED,
            Kind::Reported => REPORTED,
            Kind::Estimate => ESTIMATE,
        }
    }
}

/// One bar of a size panel.
struct Bar {
    label: String,
    low: f64,
    high: f64,
    kind: Kind,
    value: String,
}

impl Bar {
    fn historical(h: &Historical, low: f64, high: f64) -> Bar {
        Bar {
            label: h.label(),
            low,
            high,
            kind: Kind::of(h),
            value: h.quote.to_string(),
        }
    }
}

/// The chart could not be drawn: plotters' reason.
#[derive(Debug, thiserror::Error)]
#[error("drawing the chart: {0}")]
pub struct ChartError(String);

fn err<E: std::fmt::Display>(e: E) -> ChartError {
    ChartError(e.to_string())
}

/// The chart as an SVG document.
pub fn draw(builds: &[PortBench]) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 1770)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        // The speed chart, and its legend below it (beside the points it would cover them,
        // and its long labels would run past the right edge).
        let (speed, rest) = root.split_vertically(540);
        let (legend, rest) = rest.split_vertically(310);
        let (code, rest) = rest.split_vertically(300);
        let (ram, rest) = rest.split_vertically(290);
        let (per_ply, footer) = rest.split_vertically(280);
        let entries = speed_panel(&speed, builds)?;
        legend_panel(&legend, &entries)?;
        let note = "Blue: measured by kempelen bench (exact emulator counts). Squares: the historical \
             programs themselves, measured by kempelen bench --program on their machines (docs/history/program-speed.json). \
             Grey and other colours: figures from docs/history/figures.toml with their sources. Orange: an estimate, not a measurement.";
        for (i, line) in wrap(note, CHARS_PER_LINE).iter().enumerate() {
            footer
                .draw(&Text::new(
                    line.clone(),
                    (20, 10 + 16 * i as i32),
                    (FONT, 12).into_font().color(&BLACK),
                ))
                .map_err(err)?;
        }

        let mut bars = Vec::new();
        for r in builds {
            bars.push(Bar {
                label: format!("{} engine, tables included (measured)", r.label()),
                low: r.rom_engine as f64,
                high: r.rom_engine as f64,
                kind: Kind::Measured,
                value: format!("{} bytes", r.rom_engine),
            });
            if let Some((whole, _, _)) = r.rom_console {
                bars.push(Bar {
                    label: format!("{} with console front end (measured)", r.label()),
                    low: whole as f64,
                    high: whole as f64,
                    kind: Kind::Measured,
                    value: format!("{whole} bytes"),
                });
            }
        }
        for h in HISTORICAL {
            if let Figure::Code { low, high } = h.figure {
                bars.push(Bar::historical(h, low, high));
            }
        }
        bar_panel(&code, "Program size (bytes)", &bars)?;

        let mut bars = Vec::new();
        for r in builds.iter().filter(|r| !r.ram.rows.is_empty()) {
            let ram_report = &r.ram;
            let d = ram_report.max_depth;
            bars.push(Bar {
                label: format!("{} peak RAM, depth {d} search (measured)", r.label()),
                low: f64::from(ram_report.max(d)),
                high: f64::from(ram_report.max(d)),
                kind: Kind::Measured,
                value: format!(
                    "{} bytes (largest of {} positions)",
                    ram_report.max(d),
                    ram_report.rows.len()
                ),
            });
        }
        for h in HISTORICAL {
            if let Figure::Ram { low, high } = h.figure {
                bars.push(Bar::historical(h, low, high));
            }
        }
        bar_panel(&ram, "RAM in use (bytes)", &bars)?;

        let mut bars = Vec::new();
        for (r, bpp) in builds
            .iter()
            .filter_map(|r| r.ram.bytes_per_ply().map(|b| (r, b)))
        {
            bars.push(Bar {
                label: format!("{} peak RAM growth per ply (measured)", r.label()),
                low: bpp,
                high: bpp,
                kind: Kind::Measured,
                value: format!("{bpp:.1} bytes per ply"),
            });
        }
        for h in HISTORICAL {
            if let Figure::RamPerPly { bytes } = h.figure {
                bars.push(Bar::historical(h, bytes, bytes));
            }
        }
        bar_panel(&per_ply, "RAM per ply of search depth (bytes)", &bars)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The chart's width in pixels.
const WIDTH: u32 = 1200;

/// About how many characters of the 12-pixel font fit on one line of the chart's width.
const CHARS_PER_LINE: usize = 165;

/// `text` cut at spaces into lines of at most `width` characters (a longer word stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// What a legend entry shows before its label.
#[derive(Clone, Copy)]
enum Glyph {
    /// A line of this colour and width.
    Line(RGBColor, u32),
    /// A triangle in this style.
    Triangle(ShapeStyle),
    /// A square of this colour (a historical program, measured).
    Square(RGBColor),
}

/// One entry of the speed chart's legend.
struct LegendEntry {
    label: String,
    glyph: Glyph,
}

/// The speed chart's legend: one entry a row (long labels wrapped), in the area below it.
fn legend_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let font = (FONT, 12).into_font().color(&BLACK);
    let mut y = 8;
    for e in entries {
        let mid = y + 6;
        match e.glyph {
            Glyph::Line(color, width) => area
                .draw(&PathElement::new(
                    vec![(30, mid), (50, mid)],
                    color.stroke_width(width),
                ))
                .map_err(err)?,
            Glyph::Triangle(style) => area
                .draw(&TriangleMarker::new((40, mid), 6, style))
                .map_err(err)?,
            Glyph::Square(color) => area
                .draw(&Rectangle::new(
                    [(35, mid - 5), (45, mid + 5)],
                    color.filled(),
                ))
                .map_err(err)?,
        }
        for line in wrap(&e.label, CHARS_PER_LINE - 10) {
            area.draw(&Text::new(line, (60, y), font.clone()))
                .map_err(err)?;
            y += 16;
        }
        y += 4;
    }
    Ok(())
}

/// Nodes (positions) per second against the CPU clock, both axes logarithmic; returns the
/// legend's entries (drawn apart by [`legend_panel`]).
fn speed_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    builds: &[PortBench],
) -> Result<Vec<LegendEntry>, ChartError>
where
    DB::ErrorType: 'static,
{
    let names: Vec<String> = builds.iter().map(PortBench::label).collect();
    let (depth, suite) = builds
        .first()
        .map_or((0, ""), |r| (r.speed.depth, r.suite.as_str()));
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "Search speed: {} (depth {depth} on {suite}, exact cycles) and historical programs",
                names.join(", ")
            ),
            (FONT, 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((0.8f64..128.0).log_scale(), (1.0f64..10000.0).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("CPU clock (MHz)")
        .x_labels(14)
        .y_desc("searched positions per second")
        .x_label_formatter(&|v| format!("{v}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()
        .map_err(err)?;

    let mut legend = Vec::new();
    for (r, color) in builds.iter().zip(BUILDS.iter().cycle()) {
        build_speeds(&mut chart, r, *color, &mut legend)?;
    }

    programs_measured(&mut chart, &mut legend)?;

    historical_speeds(&mut chart, &mut legend)?;
    Ok(legend)
}

/// The speed panel's axes: CPU clock against positions per second, both logarithmic.
type SpeedChart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<
        plotters::coord::combinators::LogCoord<f64>,
        plotters::coord::combinators::LogCoord<f64>,
    >,
>;

/// A build's speeds: a line through its figures at the CPU clocks alone (machines with the same
/// clock share a point), and a dot per machine for the machine as it ran, under its timing
/// model (display DMA, contention, wait states, the ROM's interrupt), labelled.
fn build_speeds<DB: DrawingBackend>(
    chart: &mut SpeedChart<'_, DB>,
    r: &PortBench,
    color: RGBColor,
    legend: &mut Vec<LegendEntry>,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let sp = &r.speed;
    let mut line: Vec<(f64, f64)> = Vec::new();
    for c in r.clocks() {
        if line.last().is_none_or(|p| p.0 != c.mhz) {
            line.push((c.mhz, sp.nodes_per_second_cpu(c)));
        }
    }
    // The machines that run the real program file (`kempelen build --target`): their
    // personality's clock is the machine's.
    let files: Vec<&str> = kempelen_roms::target::Target::of_port(r.port)
        .iter()
        .map(|t| t.machine.as_str())
        .collect();
    let points: Vec<(f64, f64, String)> = r
        .clocks()
        .iter()
        .map(|c| (c.mhz, sp.nodes_per_second(c), c.id.to_string()))
        .collect();
    chart
        .draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(1)))
        .map_err(err)?;
    legend.push(LegendEntry {
        label: format!(
            "{} nodes/s: line at the CPU clock alone, dots on each {} machine as it ran \
             (timing model; {:.0} cycles a node); ringed: runs the program file",
            r.label(),
            r.port.name,
            sp.cycles_per_node()
        ),
        glyph: Glyph::Line(color, 2),
    });
    chart
        .draw_series(points.iter().map(|p| {
            let size = if p.2 == r.machine.id { 6 } else { 4 };
            Circle::new((p.0, p.1), size, color.filled())
        }))
        .map_err(err)?;
    chart
        .draw_series(
            points
                .iter()
                .filter(|p| files.contains(&p.2.as_str()))
                .map(|p| Circle::new((p.0, p.1), 10, color.stroke_width(2))),
        )
        .map_err(err)?;
    chart
        .draw_series(points.iter().enumerate().map(|(i, p)| {
            // Alternate above and below the line so neighbouring labels do not overlap.
            let dy = if i % 2 == 0 { -22 } else { 10 };
            EmptyElement::at((p.0, p.1))
                + Text::new(
                    format!(
                        "{} {:.0}{}",
                        p.2,
                        p.1,
                        if files.contains(&p.2.as_str()) {
                            " (file)"
                        } else {
                            ""
                        }
                    ),
                    (-20, dy),
                    (FONT, 13).into_font().color(&color),
                )
        }))
        .map_err(err)?;
    Ok(())
}

/// The documents' speed figures: a vertical bar where a source gives a range (an estimate
/// here), a triangle where it gives one figure, each labelled and in the legend.
fn historical_speeds<DB: DrawingBackend>(
    chart: &mut SpeedChart<'_, DB>,
    legend: &mut Vec<LegendEntry>,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let markers = [
        ShapeStyle::from(&RGBColor(200, 30, 30)).filled(),
        ShapeStyle::from(&RGBColor(40, 150, 40)).filled(),
        ShapeStyle::from(&RGBColor(130, 60, 170)).filled(),
    ];
    let mut next_marker = markers.iter().cycle();
    for h in HISTORICAL {
        let Figure::Speed {
            mhz,
            low,
            high,
            unit,
        } = h.figure
        else {
            continue;
        };
        let label = format!("{}: {} [{}]", h.label(), h.quote, h.source);
        if low < high {
            // A range (an estimate here): a vertical bar from low to high.
            let style = Kind::of(h).color();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(mhz, low), (mhz, high)],
                    style.stroke_width(6),
                )))
                .map_err(err)?;
            legend.push(LegendEntry {
                label,
                glyph: Glyph::Line(style, 6),
            });
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((mhz, high))
                        + Text::new(
                            format!(
                                "{} {:.0}-{:.0} {unit}{}",
                                short(h),
                                low,
                                high,
                                if h.estimate { " (estimate)" } else { "" }
                            ),
                            (10, -6),
                            (FONT, 13).into_font().color(&style),
                        ),
                ))
                .map_err(err)?;
        } else {
            let style = *next_marker.next().expect("cycle");
            chart
                .draw_series(std::iter::once(TriangleMarker::new((mhz, low), 8, style)))
                .map_err(err)?;
            legend.push(LegendEntry {
                label,
                glyph: Glyph::Triangle(style),
            });
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((mhz, low))
                        + Text::new(
                            format!("{} {:.0} {unit}", short(h), low),
                            (10, 4),
                            (FONT, 13).into_font().color(&style.color),
                        ),
                ))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// Colours of the measured historical programs, in the data file's order.
const PROGRAMS: [RGBColor; 3] = [
    RGBColor(20, 50, 130),
    RGBColor(0, 120, 80),
    RGBColor(150, 80, 0),
];

/// The historical programs measured by `kempelen bench --program` (the compiled-in data file):
/// a square per level at the machine's clock, labelled with the level and "measured".
fn programs_measured<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<
            plotters::coord::combinators::LogCoord<f64>,
            plotters::coord::combinators::LogCoord<f64>,
        >,
    >,
    legend: &mut Vec<LegendEntry>,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let speeds = programs::measured().map_err(err)?;
    // Every point: (program index, level, clock, positions per second).
    let mut points = Vec::new();
    for (i, p) in speeds.programs.iter().enumerate() {
        for l in &p.levels {
            points.push((i, l.level, p.mhz, l.positions_per_second));
        }
    }
    // The labels of the points on one clock are stacked from the highest point down, 15
    // pixels apart at least, so that levels and programs close together stay readable; their
    // font is smaller than the builds' so that the long labels leave the builds' free.
    points.sort_by(|a, b| a.2.total_cmp(&b.2).then(b.3.total_cmp(&a.3)));
    let mut last: Option<(f64, i32)> = None;
    for &(i, level, mhz, pps) in &points {
        let color = PROGRAMS[i % PROGRAMS.len()];
        let (_, py) = chart.backend_coord(&(mhz, pps));
        let y = match last {
            Some((m, prev)) if m == mhz => (prev + 15).max(py - 6),
            _ => py - 20,
        };
        last = Some((mhz, y));
        let level = match level {
            Some(l) => format!(" level {l}"),
            None => String::new(),
        };
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((mhz, pps))
                    + Rectangle::new([(-5, -5), (5, 5)], color.filled())
                    + Text::new(
                        measured_label(&speeds.programs[i], &level, pps),
                        (10, y - py),
                        (FONT, 11).into_font().color(&color),
                    ),
            ))
            .map_err(err)?;
    }
    for (p, color) in speeds.programs.iter().zip(PROGRAMS.iter().cycle()) {
        let color = *color;
        let figures: Vec<String> = p
            .levels
            .iter()
            .map(|l| {
                format!(
                    "{} {:.1} ({} of {} positions)",
                    programs::ProgramSpeed::level_label(l.level),
                    l.positions_per_second,
                    l.positions_searched,
                    l.positions
                )
            })
            .collect();
        legend.push(LegendEntry {
            label: format!(
                "{} on the {} at {} MHz, measured by kempelen bench --program: {} per emulated second; {} [{}]",
                p.program,
                p.machine,
                p.mhz,
                p.node,
                figures.join(", "),
                programs::DATA_PATH
            ),
            glyph: Glyph::Square(color),
        });
    }
    Ok(())
}

/// A measured program's point: its name, level, figure and what it counts, marked "measured".
fn measured_label(p: &programs::ProgramSpeed, level: &str, pps: f64) -> String {
    let unit = p.node.split(" (").next().unwrap_or(&p.node);
    format!("{}{level}: {pps:.1} {unit}/s (measured)", p.program)
}

/// The program's name without the parenthesis.
fn short(h: &Historical) -> &str {
    h.program.split(" (").next().unwrap_or(h.program)
}

/// Horizontal bars, one per figure, with the figure's text at the end of the bar.
fn bar_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    bars: &[Bar],
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    // A discrete range is inclusive at both ends: 0..n - 1 gives n segments.
    let n = bars.len() as i32 - 1;
    let top = bars.iter().map(|b| b.high).fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(440)
        .build_cartesian_2d(0.0..top * 1.6, (0..n).into_segmented())
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(bars.len())
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => bars
                .get(*i as usize)
                .map_or(String::new(), |b| b.label.clone()),
            _ => String::new(),
        })
        .x_label_formatter(&|v| format!("{v:.0}"))
        .label_style((FONT, 12))
        .draw()
        .map_err(err)?;
    for (i, b) in bars.iter().enumerate() {
        let i = i as i32;
        let color = b.kind.color();
        let mut solid = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(i)),
                (b.low, SegmentValue::Exact(i + 1)),
            ],
            color.filled(),
        );
        solid.set_margin(5, 5, 0, 0);
        chart.draw_series(std::iter::once(solid)).map_err(err)?;
        if b.high > b.low {
            let mut range = Rectangle::new(
                [
                    (b.low, SegmentValue::Exact(i)),
                    (b.high, SegmentValue::Exact(i + 1)),
                ],
                color.mix(0.35).filled(),
            );
            range.set_margin(5, 5, 0, 0);
            chart.draw_series(std::iter::once(range)).map_err(err)?;
        }
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((b.high, SegmentValue::CenterOf(i)))
                    + Text::new(
                        b.value.clone(),
                        (8, -6),
                        (FONT, 12).into_font().color(&color),
                    ),
            ))
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `<text>` elements of an SVG: (x of the left end, y, font size, text); a centred
    /// text's left end is estimated from its length.
    fn texts(svg: &str) -> Vec<(f64, f64, f64, String)> {
        let attr = |tag: &str, name: &str| -> Option<f64> {
            let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            tag[at..].split('"').next()?.parse().ok()
        };
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let (tag, rest) = t.split_once('>')?;
                let text = rest.split("</text>").next()?;
                let size = attr(tag, "font-size").unwrap_or(12.0);
                let text = text.trim().replace("&quot;", "\"").replace("&apos;", "'");
                let mut x = attr(tag, "x")?;
                if tag.contains("text-anchor=\"middle\"") {
                    x -= width(&text, size) / 2.0;
                }
                Some((x, attr(tag, "y")?, size, text))
            })
            .collect()
    }

    /// An upper bound of a text's width in a sans-serif font: 0.6 em a character.
    fn width(text: &str, size: f64) -> f64 {
        text.chars().count() as f64 * size * 0.6
    }

    #[test]
    fn every_label_fits_the_width_and_the_legend_leaves_the_points_free() {
        let svg = draw(&[]).unwrap();
        let all = texts(&svg);
        assert!(all.len() > 20, "{}", all.len());
        for (x, _, size, text) in &all {
            assert!(
                x + width(text, *size) <= f64::from(WIDTH),
                "cut at the right: {text}"
            );
        }
        // The legend (every figure's label with its source in brackets) lies below the speed
        // chart, not on its points.
        let legend: Vec<_> = all.iter().filter(|t| t.3.contains(" [")).collect();
        assert!(!legend.is_empty());
        for (_, y, _, text) in legend {
            assert!(*y > 540.0, "inside the chart: {text}");
        }
    }

    #[test]
    fn the_measured_programs_are_drawn_beside_the_documents_figures() {
        let svg = draw(&[]).unwrap();
        let all: Vec<String> = texts(&svg).into_iter().map(|t| t.3).collect();
        let speeds = programs::measured().unwrap();
        for p in &speeds.programs {
            for l in &p.levels {
                let level = l.level.map(|l| format!(" level {l}")).unwrap_or_default();
                let label = measured_label(p, &level, l.positions_per_second);
                assert!(label.contains("positions"), "{label}");
                assert!(all.contains(&label), "no `{label}` in the chart");
            }
        }
        // The documents' estimate stays, labelled as one.
        assert!(
            all.iter()
                .any(|t| t.starts_with("Sargon 5-40") && t.ends_with("(estimate)")),
            "the estimate of the documents is gone"
        );
    }

    #[test]
    fn wrap_cuts_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh ij", 4), ["abcdefgh", "ij"]);
        assert!(wrap("", 4).is_empty());
    }
}
