//! Machine personalities and their host traps, with the project's own small programs: every
//! trap service of the built-in `kim-1` (6502), `cpm` and `jupiter-3` (Z80), the character sets,
//! keyboard scans, polled keys and CIO of the target machines' personalities (`zx-spectrum`,
//! `msx`, `trs-80`, `c64`, `apple-2`, `atari-800`), exact cycles, input that runs out,
//! unsupported functions, and errors in a personality file.

use kempelen_emulator::{Fault, Machine, MachineBuilder, Personality, RunStats, StopReason};

fn machine(id: &str, addr: u16, program: &[u8]) -> Machine {
    Personality::built_in(id)
        .expect("built-in personality")
        .builder()
        .load(addr, program)
        .build()
        .expect("machine builds")
}

/// The memory of the 6502 personalities of one's own below.
const RAM_0000_7FFF: &str = r#"
[[memory]]
name = "RAM"
kind = "ram"
range = "0000-7FFF"
"#;

/// A personality of one's own from the file `text` with [`RAM_0000_7FFF`] added.
fn with_ram(file: &str, text: &str) -> Personality {
    Personality::parse(file, &format!("{text}{RAM_0000_7FFF}")).unwrap()
}

/// Runs the KIM-1 program at $0200 until GETCH waits for a key, then types `x` and runs it on
/// to its end, each part within `budget` cycles: the machine and the figures of the first
/// part and of the whole run.
fn kim1_typing_x(program: &[u8], budget: u64) -> (Machine, RunStats, RunStats) {
    let mut m = machine("kim-1", 0x0200, program);
    m.console_mut().set_stop_on_empty_input(true);
    let first = m.run(budget).unwrap();
    assert_eq!(first.stop, StopReason::InputWait { pc: 0x1E5A });
    m.console_mut().push_input(b"x");
    let whole = m.run_more(budget).unwrap();
    assert_eq!(whole.stop, StopReason::HostDone);
    (m, first, whole)
}

/// Bytes at `addr` within an image that starts at `base`.
fn image(base: u16, parts: &[(u16, &[u8])]) -> Vec<u8> {
    let end = parts
        .iter()
        .map(|(a, b)| usize::from(*a) + b.len())
        .max()
        .unwrap();
    let mut v = vec![0; end - usize::from(base)];
    for (a, b) in parts {
        let at = usize::from(*a - base);
        v[at..at + b.len()].copy_from_slice(b);
    }
    v
}

#[test]
fn built_in_personalities_parse_and_list_their_traps() {
    let all = Personality::all_built_in();
    let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "kim-1",
            "cpm",
            "jupiter-3",
            "zx-spectrum",
            "msx",
            "trs-80",
            "c64",
            "apple-2",
            "atari-800",
            "py65"
        ]
    );
    for p in &all[3..9] {
        assert_eq!(p.clock.id, p.id, "{}: the machine's own clock", p.id);
    }
    let kim = &all[0];
    let names: Vec<&str> = kim.traps.iter().map(|t| t.name.as_str()).collect();
    for n in ["SCANDS", "GETKEY", "OUTCH", "GETCH"] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
    assert_eq!(kim.clock.id, "kim-1");
    assert_eq!(all[2].clock.id, "jupiter-3");
}

/// KIM-1: OUTCH prints A, GETKEY returns the typed key then $15 (released), SCANDS draws the
/// display from $FB $FA $F9, and a jump into the monitor ends the run. The vectors at
/// $FFFA-$FFFF mirror the ROM at $1FFA-$1FFF.
#[test]
fn kim1_monitor_routines_on_the_6502() {
    let program = [
        0xA9, b'H', // LDA #'H'        2
        0x20, 0xA0, 0x1E, // JSR OUTCH  6
        0x20, 0x6A, 0x1F, // JSR GETKEY 6
        0x85, 0x10, // STA $10          3
        0x20, 0x6A, 0x1F, // JSR GETKEY 6
        0x85, 0x11, // STA $11          3
        0xA9, 0x12, // LDA #$12         2
        0x85, 0xFB, // STA $FB          3
        0x20, 0x1F, 0x1F, // JSR SCANDS 6
        0x4C, 0x4F, 0x1C, // JMP START  3
    ];
    let mut m = machine("kim-1", 0x0200, &program);
    m.console_mut().push_input(b"p");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    // The program's 40 cycles and the RTS (6 cycles) of each of the four routines.
    assert_eq!(stats.cycles, 40 + 4 * 6);
    assert_eq!(stats.instructions, 10);
    assert_eq!(m.read_byte(0x10), 0x14, "P is the PC key");
    assert_eq!(m.read_byte(0x11), 0x15, "released at the next call");
    assert_eq!(m.console_mut().take_output(), b"H[12 00 00]\n");
    assert_eq!(
        m.read_bytes(0xFFFA, 6),
        [0x1C, 0x1C, 0x22, 0x1C, 0x1F, 0x1C]
    );
    assert_eq!(m.sp(), 0x01FF, "every JSR was returned from");
}

#[test]
fn kim1_getkey_without_input_waits_and_resumes() {
    let program = [
        0x20, 0x6A, 0x1F, // JSR GETKEY
        0x85, 0x10, // STA $10
        0x4C, 0x4F, 0x1C, // JMP START
    ];
    let mut m = machine("kim-1", 0x0200, &program);
    m.console_mut().set_stop_on_empty_input(true);
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::InputWait { pc: 0x1F6A });
    assert_eq!(stats.cycles, 6);
    m.console_mut().push_input(b"7");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    // GETKEY's RTS, then STA and JMP.
    assert_eq!(stats.cycles, 6 + 3 + 3);
    assert_eq!(m.read_byte(0x10), 7);
}

/// CP/M: BDOS functions 9, 1, 2, 10, 6, 11 and the warm boot, on the Z80.
#[test]
fn cpm_bdos_functions_on_the_z80() {
    let code: &[u8] = &[
        0x0E, 0x09, // LD C,9          7
        0x11, 0x40, 0x01, // LD DE,$0140   10
        0xCD, 0x05, 0x00, // CALL 5    17
        0x0E, 0x01, // LD C,1          7
        0xCD, 0x05, 0x00, // CALL 5    17
        0x5F, // LD E,A                4
        0x0E, 0x02, // LD C,2          7
        0xCD, 0x05, 0x00, // CALL 5    17
        0x0E, 0x0A, // LD C,10         7
        0x11, 0x50, 0x01, // LD DE,$0150   10
        0xCD, 0x05, 0x00, // CALL 5    17
        0x0E, 0x06, // LD C,6          7
        0x1E, 0xFF, // LD E,$FF        7
        0xCD, 0x05, 0x00, // CALL 5    17
        0x32, 0x60, 0x01, // LD ($0160),A  13
        0x0E, 0x0B, // LD C,11         7
        0xCD, 0x05, 0x00, // CALL 5    17
        0x32, 0x61, 0x01, // LD ($0161),A  13
        0xC3, 0x00, 0x00, // JP 0      10
    ];
    let program = image(
        0x0100,
        &[
            (0x0100, code),
            (0x0140, b"Hi$"),
            (0x0150, &[8]),
            (0x0161, &[0x55]),
        ],
    );
    let mut m = machine("cpm", 0x0100, &program);
    m.console_mut().push_input(b"xabc\rZ");
    m.console_mut().set_stop_on_empty_input(true);
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    // The program's 211 T-states and the RET (10) of each of the six BDOS calls.
    assert_eq!(stats.cycles, 211 + 6 * 10);
    assert_eq!(m.console_mut().take_output(), b"Hixxabc\n");
    assert_eq!(m.read_bytes(0x0150, 5), [8, 3, b'a', b'b', b'c']);
    assert_eq!(m.read_byte(0x0160), b'Z', "function 6 with E=$FF");
    assert_eq!(m.read_byte(0x0161), 0, "function 11: nothing waiting");
    assert_eq!(m.read_word(0x0006), 0xFF00, "top of the TPA");
}

#[test]
fn cpm_unsupported_function_names_its_number() {
    // LD C,$1A (set DMA); CALL 5
    let mut m = machine("cpm", 0x0100, &[0x0E, 0x1A, 0xCD, 0x05, 0x00]);
    let err = m.run(10_000).unwrap_err();
    assert_eq!(
        err.fault,
        Fault::UnsupportedTrapFunction {
            trap: "BDOS".into(),
            code: 0x1A,
            pc: 0x0005
        }
    );
    assert_eq!(
        err.fault.to_string(),
        "BDOS at $0005: function $1A is not supported"
    );
    assert_eq!(err.cycles, 7 + 17);
}

#[test]
fn cpm_program_returning_to_ccp_warm_boots() {
    // RET: the return address $0000 that the command processor left on the stack.
    let mut m = machine("cpm", 0x0100, &[0xC9]);
    let stats = m.run(100).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(stats.cycles, 10);
}

/// Jupiter III: the Jove monitor's RST 38h services, served without executing the bytes at
/// $0038 (here HALTs, where Sargon keeps variables).
#[test]
fn jupiter3_rst38_services_on_the_z80() {
    let code: &[u8] = &[
        0x3E, b'S', // LD A,'S'       7
        0xFF, 0x81, 0x1A, // RST 38h: print A       11
        0xFF, 0xB3, 0x1A, 0x60, 0x00, 0x03, 0x00, // print block $0060,3  11
        0xFF, 0x92, 0x1A, 0x00, 0x00, // new line        11
        0xFF, 0xB2, 0x1A, 0x63, 0x00, 0x02, 0x00, // print line $0063,2  11
        0xFF, 0x81, 0x00, // read a key into A  11
        0x32, 0x70, 0x00, // LD ($0070),A         13
        0xFF, 0x1F, // exit to the monitor      11
    ];
    let program = image(
        0x0000,
        &[
            (0x0000, &[0xC3, 0x40, 0x00]), // JP $0040   10
            (0x0038, &[0x76; 8]),
            (0x0040, code),
            (0x0060, b"abcde"),
        ],
    );
    let mut m = machine("jupiter-3", 0x0000, &program);
    m.console_mut().push_input(b"q");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    // Each service but the exit returns as RET does (10 T-states).
    assert_eq!(stats.cycles, 10 + 7 + 11 * 6 + 13 + 5 * 10);
    assert_eq!(m.console_mut().take_output(), b"Sabc\nde\n");
    assert_eq!(m.read_byte(0x0070), b'q');
    assert_eq!(
        m.core_kind().name(),
        "rustzx-z80",
        "traps need every register"
    );
}

#[test]
fn jupiter3_unknown_service_is_a_fault() {
    let mut m = machine("jupiter-3", 0x0000, &[0xFF, 0x55, 0x1A]);
    let err = m.run(1_000).unwrap_err();
    assert_eq!(
        err.fault.to_string(),
        "Jove at $0038: function $551A is not supported"
    );
}

#[test]
fn a_personality_file_of_ones_own() {
    let p = with_ram(
        "toy.toml",
        r#"
id = "toy"
name = "a toy 6502 with a print routine"
cpu = "6502"
mhz = 2.0
stack = "0100-01FF"
[[trap]]
name = "PRINT"
at = "F000"
service = "put-char"
register = "X"
cycles = 12
[[trap]]
name = "EXIT"
at = "F003"
service = "done"
"#,
    );
    assert_eq!(p.clock.mhz, 2.0);
    // LDX #'k'; JSR $F000; JMP $F003
    let mut m = p
        .builder()
        .load(0x0200, &[0xA2, b'k', 0x20, 0x00, 0xF0, 0x4C, 0x03, 0xF0])
        .build()
        .unwrap();
    let stats = m.run(1_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), b"k");
    // The routine costs the 12 cycles the file gives.
    assert_eq!(stats.cycles, 2 + 6 + 12 + 3);
}

#[test]
fn errors_in_a_personality_file_name_line_and_column() {
    let cases = [
        (
            "id = \"x\"\nname = \"x\"\ncpu = \"z81\"\n",
            "f.toml:3:7: unknown CPU `z81` (z80, 6502)",
        ),
        (
            "id = \"x\"\nname = \"x\"\ncpu = \"z80\"\n[[trap]]\nname = \"T\"\nat = \"0005\"\nservice = \"teleport\"\n",
            "f.toml:7:11: unknown service `teleport`",
        ),
        (
            "id = \"x\"\nname = \"x\"\ncpu = \"6502\"\n[[trap]]\nname = \"T\"\nat = \"12345\"\nservice = \"done\"\n",
            "f.toml:6:6: `12345` is not a 16-bit address",
        ),
        (
            "id = \"x\"\nname = \"x\"\ncpu = \"z80\"\ncolour = 3\n",
            "f.toml:4:1: unknown field `colour`",
        ),
        (
            "id = \"x\"\nname = \"x\"\ncpu = \"6502\"\n[[trap]]\nname = \"T\"\nat = \"0005\"\nservice = \"put-char\"\nregister = \"DE\"\n",
            "f.toml:8:12: `DE` is not a 6502 register",
        ),
    ];
    for (text, want) in cases {
        let e = Personality::parse("f.toml", text).unwrap_err().to_string();
        assert!(e.starts_with(want), "got {e:?}, want {want:?}");
    }
}

#[test]
fn run_more_continues_a_run_that_waited_for_input() {
    let program = [
        0x20, 0x5A, 0x1E, // JSR GETCH   6
        0x85, 0x10, // STA $10            3
        0x4C, 0x4F, 0x1C, // JMP START    3
    ];
    let (mut m, _, whole) = kim1_typing_x(&program, 10_000);
    assert_eq!((whole.cycles, whole.instructions), (12 + 6, 3));
    assert_eq!(m.total_cycles(), 12 + 6);
    assert_eq!(m.console_mut().take_output(), b"x", "GETCH echoes");
    assert_eq!(
        m.ram_profile().data_bytes,
        1,
        "the STA, not forgotten by run_more"
    );
}

/// The KIM-1 passes an NMI on through the user vector at $17FA; a personality of one's own
/// prints A in hex.
#[test]
fn jump_indirect_and_put_hex_on_the_6502() {
    let p = with_ram(
        "hex.toml",
        r#"
id = "hex"
name = "a 6502 with a hex printer"
cpu = "6502"
stack = "0100-01FF"
[[trap]]
name = "HEXOUT"
at = "7000"
service = "put-hex"
[[trap]]
name = "VEC"
at = "7003"
service = "jump-indirect"
vector = "0010"
[[trap]]
name = "EXIT"
at = "7006"
service = "done"
"#,
    );
    // $0200: LDA #$3C ; JSR $7000 ; JMP $7003 (-> $0300 through $0010) ; $0300: JMP $7006
    let mut code = vec![0u8; 0x103];
    code[..8].copy_from_slice(&[0xA9, 0x3C, 0x20, 0x00, 0x70, 0x4C, 0x03, 0x70]);
    code[0x100..].copy_from_slice(&[0x4C, 0x06, 0x70]);
    let mut m = p
        .builder()
        .load(0x0200, &code)
        .fill(0x0010, &[0x00, 0x03])
        .build()
        .unwrap();
    let stats = m.run(1_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), b"3C");
    // HEXOUT's RTS and VEC's jump cost 6 cycles each by default.
    assert_eq!(stats.cycles, 2 + 6 + 6 + 3 + 6 + 3);
}

/// CP/M function 6 prints E unless E is $FF or $FE; $FE asks for the status.
#[test]
fn cpm_direct_console_output_and_status() {
    let code: &[u8] = &[
        0x0E, 0x06, 0x1E, b'!', 0xCD, 0x05, 0x00, // LD C,6 ; LD E,'!' ; CALL 5
        0x0E, 0x06, 0x1E, 0xFE, 0xCD, 0x05, 0x00, // LD C,6 ; LD E,$FE ; CALL 5
        0x32, 0x40, 0x01, // LD ($0140),A
        0xC3, 0x00, 0x00, // JP 0
    ];
    let mut m = machine("cpm", 0x0100, code);
    m.console_mut().push_input(b"z");
    let stats = m.run(1_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), b"!");
    assert_eq!(m.read_byte(0x0140), 0xFF, "a character is waiting");
    assert_eq!(stats.cycles, 2 * (7 + 7 + 17 + 10) + 13 + 10);
}

/// A 6502 without a stack region whose program fills page 1 with `$1E9F` and jumps to the
/// put-char trap at `$1EA0`: every return lands on the trap again. Each call costs the RTS's
/// 6 cycles, so the loop spends the budget and stops at it.
#[test]
fn a_program_looping_on_a_trap_stops_at_the_cycle_budget() {
    let fill_page_one_and_jump = [
        0xA2, 0x00, // LDX #0
        0xA9, 0x9F, // loop: LDA #$9F
        0x9D, 0x00, 0x01, // STA $0100,X
        0xA9, 0x1E, // LDA #$1E
        0x9D, 0x01, 0x01, // STA $0101,X
        0xE8, 0xE8, // INX ; INX
        0xD0, 0xF2, // BNE loop
        0xA2, 0xFF, 0x9A, // LDX #$FF ; TXS
        0x4C, 0xA0, 0x1E, // JMP $1EA0
    ];
    let p = with_ram(
        "loop.toml",
        r#"
id = "loop"
name = "a 6502 without a stack check"
cpu = "6502"
[[trap]]
name = "OUTCH"
at = "1EA0"
service = "put-char"
"#,
    );
    let mut m = p
        .builder()
        .load(0x0200, &fill_page_one_and_jump)
        .build()
        .unwrap();
    let err = m.run(100_000).unwrap_err();
    assert!(
        matches!(
            err.fault,
            Fault::BudgetExceeded {
                budget: 100_000,
                pc: 0x1EA0
            }
        ),
        "{}",
        err.fault
    );
    assert!((100_000..100_006).contains(&err.cycles), "{}", err.cycles);
    let prefix = 2 + 128 * (2 + 5 + 2 + 5 + 2 + 2 + 3) - 1 + 2 + 2 + 3;
    let printed = m.console_mut().take_output().len() as u64;
    assert_eq!(printed, (err.cycles - prefix) / 6);
    // On the KIM-1, whose stack region is page 1, the first return pops an empty stack.
    let mut m = machine("kim-1", 0x0200, &fill_page_one_and_jump);
    let err = m.run(100_000).unwrap_err();
    assert!(
        matches!(err.fault, Fault::StackUnderflow { pc: 0x1EA0, .. }),
        "{}",
        err.fault
    );
}

fn personality_error(body: &str) -> String {
    let text = format!("id = \"x\"\nname = \"x\"\n{body}");
    Personality::parse("f.toml", &text)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn numbers_in_a_personality_are_range_checked_with_their_place() {
    for (mhz, found) in [
        ("1e-300", "1e-300"),
        ("1e-20", "1e-20"),
        ("nan", "NaN"),
        ("inf", "inf"),
        ("-2.0", "-2.0"),
        ("1001.0", "1001.0"),
    ] {
        let e = personality_error(&format!("cpu = \"z80\"\nmhz = {mhz}\n"));
        assert_eq!(
            e,
            format!("f.toml:4:7: mhz must be between 0.01 and 1000 (found {found})")
        );
    }
    for cycles in ["0", "1000000001", "18446744073709551615"] {
        let e = personality_error(&format!(
            "cpu = \"z80\"\n[[trap]]\nname = \"T\"\nat = \"0005\"\nservice = \"done\"\ncycles = {cycles}\n"
        ));
        assert_eq!(
            e,
            format!(
                "f.toml:8:10: cycles must be between 1 and 1000000000 (found {cycles}): every call of a routine costs time"
            )
        );
    }
    let e = personality_error("cpu = \"z80\"\n[[fill]]\nat = \"FFFF\"\nbytes = \"01 02\"\n");
    assert_eq!(
        e,
        "f.toml:6:9: 2 bytes at $FFFF run past $FFFF (a fill does not wrap to $0000)"
    );
    let e = personality_error(
        "cpu = \"z80\"\n[[memory]]\nname = \"R\"\nkind = \"rom\"\nrange = \"F000-FFFF\"\n[[mirror]]\nrange = \"F000-F0FF\"\nof = \"FF80\"\n",
    );
    assert!(
        e.starts_with("f.toml:10:6: the 256 bytes copied from $FF80 run past $FFFF"),
        "{e}"
    );
    let e = personality_error("cpu = \"z80\"\n[[fill]]\nat = \"+FFF\"\nbytes = \"01\"\n");
    assert!(
        e.starts_with("f.toml:5:6: `+FFF` is not a 16-bit address"),
        "{e}"
    );
    let e = personality_error("cpu = \"z80\"\n[[fill]]\nat = \"0000\"\nbytes = \"+1\"\n");
    assert!(e.starts_with("f.toml:6:9: `+1` is not a hex byte"), "{e}");
}

/// The 6502 has no register pair and no `E`: the services whose default register is one of
/// them need a `register` there, or cannot be served at all.
#[test]
fn a_6502_service_without_its_register_is_an_error_not_a_panic() {
    for (service, want) in [
        (
            "print-string",
            "f.toml:7:11: `print-string` needs an address in a register pair (BC, DE, HL); the 6502 has none",
        ),
        (
            "read-line",
            "f.toml:7:11: `read-line` needs an address in a register pair (BC, DE, HL); the 6502 has none",
        ),
        (
            "direct-io",
            "f.toml:7:11: `direct-io` needs `register` on the 6502: its default, E, is not a 6502 register",
        ),
    ] {
        let e = personality_error(&format!(
            "cpu = \"6502\"\n[[trap]]\nname = \"T\"\nat = \"1000\"\nservice = \"{service}\"\n"
        ));
        assert!(e.starts_with(want), "got {e:?}, want {want:?}");
    }
    // With a register the 6502 has, direct I/O works.
    assert!(
        Personality::parse(
            "f.toml",
            "id = \"x\"\nname = \"x\"\ncpu = \"6502\"\n[[trap]]\nname = \"T\"\nat = \"1000\"\nservice = \"direct-io\"\nregister = \"A\"\n"
        )
        .is_ok()
    );
}

#[test]
fn images_that_overlap_are_an_error_unless_the_later_may_win() {
    use kempelen_emulator::{ConfigError, Cpu};
    let b = MachineBuilder::new(Cpu::Z80)
        .load(0x0000, &[0x00, 0x00, 0x76])
        .load(0x0002, &[0x00, 0x76]);
    let e = b.clone().build().unwrap_err();
    assert!(matches!(e, ConfigError::ImagesOverlap { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "the images overlap: $0002-$0003 writes over $0000-$0002, loaded before it (the later bytes win only with --overlap later-wins)"
    );
    let mut m = b.overlap(kempelen_asm::Overlap::LaterWins).build().unwrap();
    assert_eq!(m.read_bytes(0, 4), [0x00, 0x00, 0x00, 0x76]);
    assert_eq!(m.run(100).unwrap().stop, StopReason::Halt { pc: 3 });
    // Nothing but empty images is no program.
    let e = MachineBuilder::new(Cpu::Z80)
        .load(0, &[])
        .build()
        .unwrap_err();
    assert_eq!(e, ConfigError::NoProgram);
    // A fill past $FFFF does not wrap over the program.
    let e = MachineBuilder::new(Cpu::Z80)
        .load(0, &[0x76])
        .fill(0xFFFF, &[1, 2])
        .build()
        .unwrap_err();
    assert!(
        matches!(
            e,
            ConfigError::ImageTooLarge {
                addr: 0xFFFF,
                len: 2
            }
        ),
        "{e}"
    );
}

/// The stats of a run continued with `run_more` are the whole run's, its host time too (so
/// `run --input` reports the emulated MHz of the whole run, not of its last part).
#[test]
fn run_more_reports_the_host_time_of_the_whole_run() {
    // A loop of 200,000 rounds, then GETCH, then into the monitor.
    let program = [
        0xA0, 0x00, // LDY #0
        0xA2, 0x00, // outer: LDX #0
        0xCA, // inner: DEX
        0xD0, 0xFD, // BNE inner
        0x88, // DEY
        0xD0, 0xF8, // BNE outer
        0x20, 0x5A, 0x1E, // JSR GETCH
        0x4C, 0x4F, 0x1C, // JMP START
    ];
    let (_, first, whole) = kim1_typing_x(&program, 10_000_000);
    assert!(
        whole.wall_time >= first.wall_time,
        "{:?} < {:?}",
        whole.wall_time,
        first.wall_time
    );
}

/// ZX Spectrum: RST 10h prints A (13 a new line), KEYBOARD puts a typed key into LAST_K and sets
/// bit 5 of FLAGS (ENTER 13, DELETE 12), CLS does nothing, and the return to BASIC through the
/// USR routine's STACK-BC ends the run.
#[test]
fn spectrum_rom_print_and_keyboard_scan() {
    let code: &[u8] = &[
        0x3E, b'k', // LD A,'k'
        0xD7, // RST 10h
        0x3E, 13,   // LD A,13
        0xD7, // RST 10h
        0xCD, 0x6B, 0x0D, // CALL CLS
        0xCD, 0xBF, 0x02, // CALL KEYBOARD
        0x3A, 0x08, 0x5C, // LD A,(LAST_K)
        0x32, 0x00, 0x90, // LD ($9000),A
        0xCD, 0xBF, 0x02, // CALL KEYBOARD
        0x3A, 0x08, 0x5C, // LD A,(LAST_K)
        0x32, 0x01, 0x90, // LD ($9001),A
        0xCD, 0xBF, 0x02, // CALL KEYBOARD
        0x3A, 0x08, 0x5C, // LD A,(LAST_K)
        0x32, 0x02, 0x90, // LD ($9002),A
        0xC9, // RET (to STACK-BC)
    ];
    let mut m = machine("zx-spectrum", 0x8000, code);
    m.console_mut().push_input(b"e\n\x7f");
    m.console_mut().set_stop_on_empty_input(true);
    let stats = m.run(100_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), b"k\n");
    assert_eq!(m.read_bytes(0x9000, 3), [b'e', 13, 12]);
    assert_eq!(m.read_byte(0x5C3B) & 0x20, 0x20, "FLAGS bit 5");
}

/// C64: CHROUT translates PETSCII (lower case at $41-$5A, upper case at $C1-$DA, $0D a new
/// line; the case switch $0E prints nothing); GETIN gives PETSCII, and with scripted input that
/// has run out it waits (InputWait) and answers once a line is queued.
#[test]
fn c64_kernal_petscii_and_getin() {
    let code: &[u8] = &[
        0xA9, 0x0E, 0x20, 0xD2, 0xFF, // LDA #$0E ; JSR CHROUT
        0xA9, 0xCB, 0x20, 0xD2, 0xFF, // LDA #$CB ('K') ; JSR CHROUT
        0xA9, 0x45, 0x20, 0xD2, 0xFF, // LDA #$45 ('e') ; JSR CHROUT
        0xA9, 0x0D, 0x20, 0xD2, 0xFF, // LDA #$0D ; JSR CHROUT
        0x20, 0xE4, 0xFF, 0x85, 0x10, // JSR GETIN ; STA $10
        0x20, 0xE4, 0xFF, 0x85, 0x11, // JSR GETIN ; STA $11
        0x60, // RTS (to BASIC)
    ];
    let mut m = machine("c64", 0x1000, code);
    m.console_mut().set_stop_on_empty_input(true);
    m.console_mut().push_input(b"A");
    let stats = m.run(10_000).unwrap();
    assert!(
        matches!(stats.stop, StopReason::InputWait { .. }),
        "{:?}",
        stats.stop
    );
    assert_eq!(m.console_mut().take_output(), b"Ke\n");
    assert_eq!(m.read_byte(0x10), 0xC1, "A typed: PETSCII shifted A");
    m.console_mut().push_input(b"\n");
    let stats = m.run_more(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.read_byte(0x11), 0x0D, "RETURN");
}

/// Atari 800: CIO at $E456 chooses by IOCB #0's command byte ($0342): $0B puts A, $07 gets a
/// character (echoed, as the screen editor does; RETURN as ATASCII's end of line $9B); an
/// unknown command names its code.
#[test]
fn atari_cio_by_the_iocb_command() {
    let code: &[u8] = &[
        0xA9, 0x0B, 0x8D, 0x42, 0x03, // LDA #$0B ; STA ICCOM
        0xA9, b'k', 0x20, 0x56, 0xE4, // LDA #'k' ; JSR CIOV
        0xA9, 0x9B, 0x20, 0x56, 0xE4, // LDA #EOL ; JSR CIOV
        0xA9, 0x07, 0x8D, 0x42, 0x03, // LDA #$07 ; STA ICCOM
        0x20, 0x56, 0xE4, 0x85, 0x10, // JSR CIOV ; STA $10
        0x20, 0x56, 0xE4, 0x85, 0x11, // JSR CIOV ; STA $11
        0xA9, 0x03, 0x8D, 0x42, 0x03, // LDA #$03 (OPEN) ; STA ICCOM
        0x20, 0x56, 0xE4, // JSR CIOV
    ];
    let mut m = machine("atari-800", 0x2000, code);
    m.console_mut().push_input(b"x\n");
    let err = m.run(10_000).unwrap_err();
    assert_eq!(m.console_mut().take_output(), b"k\nx\n");
    assert_eq!(m.read_bytes(0x10, 2), [b'x', 0x9B]);
    assert!(
        matches!(err.fault, Fault::UnsupportedTrapFunction { code: 3, .. }),
        "{:?}",
        err.fault
    );
}

/// Apple II: COUT takes characters with bit 7 set ($8D a new line), RDKEY gives them so.
#[test]
fn apple_monitor_high_bit_characters() {
    let code: &[u8] = &[
        0xA9, 0xCB, 0x20, 0xED, 0xFD, // LDA #$CB ('K'|$80) ; JSR COUT
        0xA9, 0x8D, 0x20, 0xED, 0xFD, // LDA #$8D ; JSR COUT
        0x20, 0x0C, 0xFD, 0x85, 0x10, // JSR RDKEY ; STA $10
        0x20, 0x0C, 0xFD, 0x85, 0x11, // JSR RDKEY ; STA $11
        0x4C, 0xD0, 0x03, // JMP $03D0 (DOS warm start)
    ];
    let mut m = machine("apple-2", 0x0800, code);
    m.console_mut().push_input(b"E\n");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), b"K\n");
    assert_eq!(m.read_bytes(0x10, 2), [0xC5, 0x8D]);
}
