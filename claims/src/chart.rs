//! The chart of `kempelen bench --cpu z80|6502 --svg FILE`: every benched build's measured
//! figures (Kempelen-Z80, Kempelen-6502) beside the historical programs' ([`figures`](crate::figures)), each
//! point a measurement at its machine's clock, drawn with plotters' SVG backend. Four panels:
//! search speed against CPU clock (log-log), code size, RAM in use, RAM per ply. Measured
//! bars are blue, reported historical figures grey, estimates orange and labelled as such;
//! where a source gives a range, the bar's lighter part spans it.

use kempelen_roms::bench::PortBench;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::figures::{Figure, HISTORICAL, Historical};

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
        let root = SVGBackend::with_string(&mut svg, (1200, 1400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (speed, rest) = root.split_vertically(560);
        let (code, rest) = rest.split_vertically(300);
        let (ram, per_ply) = rest.split_vertically(290);
        speed_panel(&speed, builds)?;
        root.draw(&Text::new(
            "Blue: measured by kempelen bench (exact emulator counts). Grey and other colours: \
             figures from docs/history/figures.toml with their sources. Orange: an estimate, not a measurement.",
            (20, 1385),
            (FONT, 12).into_font().color(&BLACK),
        ))
        .map_err(err)?;

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

/// Nodes (positions) per second against the CPU clock, both axes logarithmic.
fn speed_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    builds: &[PortBench],
) -> Result<(), ChartError>
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

    // Each build: a line through its figures at the CPU clocks alone (machines with the same
    // clock share a point), and a dot per machine for the machine as it ran, under its timing
    // model (display DMA, contention, wait states, the ROM's interrupt), labelled.
    for (r, color) in builds.iter().zip(BUILDS.iter().cycle()) {
        let color = *color;
        let sp = &r.speed;
        let mut line: Vec<(f64, f64)> = Vec::new();
        for c in r.clocks() {
            if line.last().is_none_or(|p| p.0 != c.mhz) {
                line.push((c.mhz, sp.nodes_per_second_cpu(c)));
            }
        }
        let points: Vec<(f64, f64, String)> = r
            .clocks()
            .iter()
            .map(|c| (c.mhz, sp.nodes_per_second(c), c.id.to_string()))
            .collect();
        chart
            .draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(1)))
            .map_err(err)?
            .label(format!(
                "{} nodes/s: line at the CPU clock alone, dots on each {} machine as it ran \
                 (timing model; {:.0} cycles a node)",
                r.label(),
                r.port.name,
                sp.cycles_per_node()
            ))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|p| {
                let size = if p.2 == r.machine.id { 6 } else { 4 };
                Circle::new((p.0, p.1), size, color.filled())
            }))
            .map_err(err)?;
        chart
            .draw_series(points.iter().enumerate().map(|(i, p)| {
                // Alternate above and below the line so neighbouring labels do not overlap.
                let dy = if i % 2 == 0 { -22 } else { 10 };
                EmptyElement::at((p.0, p.1))
                    + Text::new(
                        format!("{} {:.0}", p.2, p.1),
                        (-20, dy),
                        (FONT, 13).into_font().color(&color),
                    )
            }))
            .map_err(err)?;
    }

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
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], style.stroke_width(6))
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
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 6, style));
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
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 12))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
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
