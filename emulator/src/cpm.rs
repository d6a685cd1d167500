//! A minimal CP/M environment for running CP/M `.COM` programs such as the ZEXDOC and ZEXALL
//! instruction exercisers.
//!
//! The program is loaded at `$0100` into 64 KB of RAM. The BDOS is a few bytes of ordinary Z80
//! code (so it runs on any core and its cycles are counted like the program's):
//!
//! | address | code | what |
//! |---|---|---|
//! | `$0000` | `XOR A / OUT ($FF),A` | warm boot = host call "done": the run ends normally |
//! | `$0005` | `JP $FF00` | BDOS entry; the word at `$0006` ($FF00) is the top of the TPA, where CP/M programs put their stack |
//! | `$FF00` | | function 2 (C = 2): print E on the console; function 9: print the `$`-terminated string at DE; any other function: `HALT` at `$FF09` |
//!
//! The program starts at `$0100` with SP = `$FEFE` and a return address of `$0000` on the stack,
//! as CP/M's command processor leaves it. There is no stack region: CP/M programs may put the
//! stack anywhere (the exercisers load SP with test values).

use crate::Cpu;
use crate::builder::MachineBuilder;
use crate::memory::MemoryMap;

/// Where CP/M programs are loaded and start.
pub const TPA: u16 = 0x0100;
/// Address of the BDOS code.
pub const BDOS: u16 = 0xFF00;
/// Address of the `HALT` the BDOS reaches on an unsupported function.
pub const BDOS_UNSUPPORTED: u16 = 0xFF09;

/// Page zero: warm boot at $0000 and the BDOS jump at $0005.
const PAGE_ZERO: [u8; 8] = [
    0xAF, // 0000 XOR A
    0xD3, 0xFF, // 0001 OUT ($FF),A   ; host call "done"
    0x00, 0x00, // 0003 IOBYTE, current drive
    0xC3, 0x00, 0xFF, // 0005 JP $FF00
];

/// The BDOS: functions 2 and 9 through the console port.
const BDOS_CODE: [u8; 0x17] = [
    0x79, // FF00 LD A,C
    0xFE, 0x02, // FF01 CP 2
    0x28, 0x05, // FF03 JR Z,$FF0A
    0xFE, 0x09, // FF05 CP 9
    0x28, 0x05, // FF07 JR Z,$FF0E
    0x76, // FF09 HALT            ; unsupported function
    0x7B, // FF0A LD A,E          ; function 2: console output
    0xD3, 0x01, // FF0B OUT ($01),A
    0xC9, // FF0D RET
    0x1A, // FF0E LD A,(DE)       ; function 9: print string
    0xFE, 0x24, // FF0F CP '$'
    0xC8, // FF11 RET Z
    0xD3, 0x01, // FF12 OUT ($01),A
    0x13, // FF14 INC DE
    0x18, 0xF7, // FF15 JR $FF0E
];

/// A builder for a CP/M machine running `program` (a `.COM` image).
pub fn builder(program: &[u8]) -> MachineBuilder {
    MachineBuilder::new(Cpu::Z80)
        .memory_map(MemoryMap::all_ram())
        .load(TPA, program)
        .load(0x0000, &PAGE_ZERO)
        .load(BDOS, &BDOS_CODE)
        .entry(TPA)
        .stack_pointer(0xFEFE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StopReason;

    #[test]
    fn bdos_prints_and_warm_boot_ends_the_run() {
        // LD C,9; LD DE,msg; CALL 5; LD C,2; LD E,'!'; CALL 5; RET   msg: "hi$"
        let program = [
            0x0E, 0x09, 0x11, 0x10, 0x01, 0xCD, 0x05, 0x00, 0x0E, 0x02, 0x1E, b'!', 0xCD, 0x05,
            0x00, 0xC9, b'h', b'i', b'$',
        ];
        let mut m = builder(&program).build().unwrap();
        let stats = m.run(10_000).unwrap();
        assert_eq!(stats.stop, StopReason::HostDone);
        assert_eq!(m.console_mut().take_output(), b"hi!");
    }

    #[test]
    fn unsupported_bdos_function_halts_in_the_bdos() {
        // LD C,1; CALL 5
        let mut m = builder(&[0x0E, 0x01, 0xCD, 0x05, 0x00]).build().unwrap();
        let stats = m.run(10_000).unwrap();
        assert_eq!(
            stats.stop,
            StopReason::Halt {
                pc: BDOS_UNSUPPORTED
            }
        );
    }
}
