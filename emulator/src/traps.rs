//! Host traps: addresses where the host serves a routine instead of running its bytes.
//!
//! A machine personality (see [`crate::personality`]) names the routines of a machine's
//! monitor or operating system that a program calls (the KIM-1's `SCANDS` and `GETKEY`, the
//! CP/M BDOS, the Jupiter III's `RST 38h` services). When the PC reaches a trap address the
//! step loop stops before the instruction there, the machine serves the call (a character
//! printed, a key put into a register, a line read into memory, the display drawn) and
//! returns to the caller as the routine's `RET` or `RTS` would, or ends the run. The call
//! into the trap is counted like any instruction; the routine itself costs the trap's
//! `cycles`, at least one: by default those of the return instruction every routine ends with
//! ([`default_cycles`]). So a program that loops on a trap (a stack that returns onto the trap
//! itself) still spends its cycle budget and stops at it.

use crate::Cpu;
use crate::core::Registers;

/// A register a trap service reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Reg {
    /// The accumulator (both CPUs).
    A,
    /// Z80 B, C, D, E, H, L.
    B,
    /// Z80 C.
    C,
    /// Z80 D.
    D,
    /// Z80 E.
    E,
    /// Z80 H.
    H,
    /// Z80 L.
    L,
    /// Z80 BC.
    BC,
    /// Z80 DE.
    DE,
    /// Z80 HL.
    HL,
    /// 6502 X.
    X,
    /// 6502 Y.
    Y,
}

impl Reg {
    /// Parses a register name for `cpu` (`A`, `E`, `DE`, `X` ...).
    pub fn parse(cpu: Cpu, name: &str) -> Option<Reg> {
        let r = match name.to_ascii_uppercase().as_str() {
            "A" => Reg::A,
            "B" => Reg::B,
            "C" => Reg::C,
            "D" => Reg::D,
            "E" => Reg::E,
            "H" => Reg::H,
            "L" => Reg::L,
            "BC" => Reg::BC,
            "DE" => Reg::DE,
            "HL" => Reg::HL,
            "X" => Reg::X,
            "Y" => Reg::Y,
            _ => return None,
        };
        let ok = match cpu {
            Cpu::Z80 => !matches!(r, Reg::X | Reg::Y),
            Cpu::Mos6502 | Cpu::Cmos65c02 => matches!(r, Reg::A | Reg::X | Reg::Y),
        };
        ok.then_some(r)
    }

    /// Whether the register holds 16 bits.
    pub fn is_pair(self) -> bool {
        matches!(self, Reg::BC | Reg::DE | Reg::HL)
    }

    /// The register's value in `regs` (`None` when the core does not show it).
    pub fn get(self, regs: &Registers) -> Option<u16> {
        match regs {
            Registers::Z80(r) => {
                let m = r.main?;
                let hi = |w: u16| w >> 8;
                let lo = |w: u16| w & 0xFF;
                Some(match self {
                    Reg::A => hi(m.af),
                    Reg::B => hi(m.bc),
                    Reg::C => lo(m.bc),
                    Reg::D => hi(m.de),
                    Reg::E => lo(m.de),
                    Reg::H => hi(m.hl),
                    Reg::L => lo(m.hl),
                    Reg::BC => m.bc,
                    Reg::DE => m.de,
                    Reg::HL => m.hl,
                    Reg::X | Reg::Y => return None,
                })
            }
            Registers::Mos6502(r) => Some(u16::from(match self {
                Reg::A => r.a,
                Reg::X => r.x,
                Reg::Y => r.y,
                _ => return None,
            })),
        }
    }

    /// Sets the register in `regs`; `false` when the core does not show it.
    pub fn set(self, regs: &mut Registers, value: u16) -> bool {
        let set_hi = |w: &mut u16| *w = (*w & 0x00FF) | (value << 8);
        let set_lo = |w: &mut u16| *w = (*w & 0xFF00) | (value & 0xFF);
        match regs {
            Registers::Z80(r) => {
                let Some(m) = r.main.as_mut() else {
                    return false;
                };
                match self {
                    Reg::A => set_hi(&mut m.af),
                    Reg::B => set_hi(&mut m.bc),
                    Reg::C => set_lo(&mut m.bc),
                    Reg::D => set_hi(&mut m.de),
                    Reg::E => set_lo(&mut m.de),
                    Reg::H => set_hi(&mut m.hl),
                    Reg::L => set_lo(&mut m.hl),
                    Reg::BC => m.bc = value,
                    Reg::DE => m.de = value,
                    Reg::HL => m.hl = value,
                    Reg::X | Reg::Y => return false,
                }
            }
            Registers::Mos6502(r) => match self {
                Reg::A => r.a = value as u8,
                Reg::X => r.x = value as u8,
                Reg::Y => r.y = value as u8,
                _ => return false,
            },
        }
        true
    }
}

/// How a machine's character codes map to the host's ASCII: what a trap prints of a
/// machine's character, and what code a key typed on the host gives the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Charset {
    /// ASCII both ways (CP/M, MSX, the KIM-1's teletype).
    #[default]
    Ascii,
    /// ASCII with 13 as the new line, the Enter key giving 13 and the delete key 8 (TRS-80).
    Cr,
    /// The ZX Spectrum's: 13 the new line and the ENTER key, 12 the DELETE key, 8 a column
    /// back.
    Zx,
    /// The Commodore 64's PETSCII in its lower-case set: `$41-$5A` lower case, `$C1-$DA`
    /// (and `$61-$7A`) upper case, `$0D` the new line and RETURN, `$14` DEL (the key, and a
    /// column back when printed), `$9D` cursor left; the case switches `$0E`, `$08` print
    /// nothing.
    Petscii,
    /// The Apple II's: ASCII with bit 7 set, `$8D` the new line and RETURN, `$88` the left
    /// arrow (back a column).
    Apple,
    /// The Atari's ATASCII: `$9B` the end of line (new line and RETURN), `$7E` the back space.
    Atascii,
}

impl Charset {
    /// The charset named `name` (`ascii`, `cr`, `zx`, `petscii`, `apple`, `atascii`).
    pub fn parse(name: &str) -> Option<Charset> {
        Some(match name {
            "ascii" => Charset::Ascii,
            "cr" => Charset::Cr,
            "zx" => Charset::Zx,
            "petscii" => Charset::Petscii,
            "apple" => Charset::Apple,
            "atascii" => Charset::Atascii,
            _ => return None,
        })
    }

    /// What the host shows for the machine's character `b` (`None`: nothing).
    pub fn to_host(self, b: u8) -> Option<u8> {
        Some(match self {
            Charset::Ascii => b,
            Charset::Cr | Charset::Zx => match b {
                13 => b'\n',
                _ => b,
            },
            Charset::Petscii => match b {
                0x0D => b'\n',
                0x41..=0x5A => b + 0x20,
                0xC1..=0xDA => b - 0x80,
                0x61..=0x7A => b - 0x20,
                0x14 | 0x9D => 8,
                0x0E | 0x08 => return None,
                _ => b,
            },
            Charset::Apple => match b & 0x7F {
                0x0D => b'\n',
                c => c,
            },
            Charset::Atascii => match b {
                0x9B => b'\n',
                0x7E => 8,
                _ => b,
            },
        })
    }

    /// The machine's code for the key typed on the host as `c`.
    pub fn from_host(self, c: u8) -> u8 {
        let enter = c == b'\n' || c == b'\r';
        let delete = c == 8 || c == 0x7F;
        match self {
            Charset::Ascii => c,
            Charset::Cr if enter => 13,
            Charset::Cr if delete => 8,
            Charset::Cr => c,
            Charset::Zx if enter => 13,
            Charset::Zx if delete => 12,
            Charset::Zx => c,
            Charset::Petscii => match c {
                _ if enter => 0x0D,
                _ if delete => 0x14,
                b'a'..=b'z' => c - 0x20,
                b'A'..=b'Z' => c + 0x80,
                _ => c,
            },
            Charset::Apple if enter => 0x8D,
            Charset::Apple if delete => 0x88,
            Charset::Apple => c | 0x80,
            Charset::Atascii if enter => 0x9B,
            Charset::Atascii if delete => 0x7E,
            Charset::Atascii => c,
        }
    }
}

/// What the host does for a trapped call.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Service {
    /// Print the character in the register.
    PutChar { register: Reg, charset: Charset },
    /// Print the register as two hex digits.
    PutHex { register: Reg },
    /// Wait for a character and put it in the register (and print it when `echo`).
    GetChar {
        register: Reg,
        echo: bool,
        charset: Charset,
    },
    /// A waiting character in the register, or `none` (the C64 KERNAL's GETIN). With a
    /// scripted console that the host asked to stop on empty input, finding none is waiting
    /// (the run stops with `InputWait` and the call is made again), as a read of the
    /// Kempelen machine's own console is.
    PollChar {
        register: Reg,
        none: u8,
        charset: Charset,
    },
    /// A keyboard scan (the ZX Spectrum ROM's KEYBOARD, which its interrupt calls): a waiting
    /// character goes to `store` and sets bit `bit` of `flag` (LAST_K and FLAGS bit 5); none
    /// waiting is waiting as in [`Service::PollChar`].
    Keyboard {
        store: u16,
        flag: u16,
        bit: u8,
        charset: Charset,
    },
    /// Nothing: the routine's effect is not modelled (clearing the screen, a mode switch).
    Return,
    /// Put `ready` in the register if a character is waiting, else `none`.
    Status { register: Reg, ready: u8, none: u8 },
    /// Print the string at the address in the register, up to `terminator`.
    PrintString { register: Reg, terminator: u8 },
    /// CP/M's console buffer at the address in the register: byte 0 the size, byte 1 the
    /// count read, then the characters of one line (echoed, without its end).
    ReadLine { register: Reg },
    /// CP/M's direct console I/O with the value in the register: `$FF` puts a waiting
    /// character (or 0) in A without echo, `$FE` the console status, anything else is printed.
    DirectIo { register: Reg },
    /// Print the block whose address and length (two words) follow the call; then a new line
    /// if `newline`.
    PrintInline { newline: bool },
    /// Print a new line (and skip `args` inline bytes).
    Newline { args: u8 },
    /// Light a hex display with the bytes at these addresses (two digits each): printed as a
    /// line when it changes.
    Display { digits: Vec<u16> },
    /// A keypad: the key in the register, `none` between keys; typed characters map to key
    /// codes through `keys` (the hex digits 0-F map to 0-15).
    Key {
        register: Reg,
        none: u8,
        keys: Vec<(u8, u8)>,
    },
    /// Continue at the address stored at `vector` (a monitor passing an interrupt on).
    JumpIndirect { vector: u16 },
    /// End the run ([`crate::StopReason::HostDone`]).
    Done,
}

/// One service of a trap, chosen by its code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Function {
    /// The code (empty for a trap with one service).
    pub code: Vec<u8>,
    /// What it is called.
    pub name: String,
    /// What the host does.
    pub service: Service,
}

/// How a trap chooses among its functions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Select {
    /// One service.
    Single,
    /// By the bytes following the call (`RST 38h` then `81h, 1Ah`); the return skips them.
    Inline,
    /// By the value of a register (CP/M: C).
    Register(Reg),
    /// By the byte at an address (the Atari's CIO: the command byte of IOCB #0, `$0342`).
    Memory(u16),
}

/// A host trap at an address.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Trap {
    /// The routine's name.
    pub name: String,
    /// Its address: when the PC gets here, the host serves the call.
    pub at: u16,
    /// How the function is chosen.
    pub select: Select,
    /// The functions.
    pub functions: Vec<Function>,
    /// Cycles charged for the routine, at least 1 (a personality's default:
    /// [`default_cycles`]).
    pub cycles: u64,
}

/// The cycles a trap charges when its personality gives none: those of the return instruction
/// that ends every routine (Z80 `RET`: 10 T-states; 6502 `RTS`: 6 cycles). The rest of the
/// monitor's routine is not counted, so the time measured is the program's own.
pub fn default_cycles(cpu: Cpu) -> u64 {
    match cpu {
        Cpu::Z80 => 10,
        Cpu::Mos6502 | Cpu::Cmos65c02 => 6,
    }
}

/// The most cycles one trap call may charge (a personality's `cycles`): a billion, minutes of
/// any historical machine's time.
pub const MAX_CYCLES: u64 = 1_000_000_000;

/// What serving a trap came to.
#[derive(Debug)]
pub(crate) enum Served {
    /// Go on (the PC and registers are set).
    Continue,
    /// The run ends normally.
    Done,
    /// No input: the call is retried when input arrives.
    Wait,
    /// A function code the trap does not serve.
    Unsupported { code: u16 },
}

/// The key code for a typed character: hex digits 0-F, then the personality's letters.
pub(crate) fn key_code(keys: &[(u8, u8)], c: u8) -> Option<u8> {
    let up = c.to_ascii_uppercase();
    if let Some(&(_, code)) = keys.iter().find(|(k, _)| k.to_ascii_uppercase() == up) {
        return Some(code);
    }
    match up {
        b'0'..=b'9' => Some(up - b'0'),
        b'A'..=b'F' => Some(up - b'A' + 10),
        _ => None,
    }
}

/// Cycles charged each time a trap that waits for input finds none with a terminal attached
/// (the monitor's input loop): the budget keeps counting while a person types.
pub const WAIT_CYCLES: u64 = 100;

/// What the traps remember between calls.
#[derive(Debug, Default)]
pub(crate) struct TrapState {
    /// The keypad returned a key at the last call: the next call releases it.
    key_held: bool,
    /// The digits last drawn by a display service.
    shown: Option<Vec<u8>>,
    /// A console line read so far (CP/M function 10).
    line: Vec<u8>,
}

/// A trap call being served: what its services read and change.
struct TrapCall<'t> {
    /// The trap's name and address (for a fault).
    name: &'t str,
    pc: u16,
    /// The cycles the routine costs.
    cycles: u64,
    /// The registers as the return leaves them.
    regs: Registers,
    /// Where the caller goes on: the return address, past the inline bytes a service read.
    cursor: u16,
}

impl TrapCall<'_> {
    /// The fault of a core that keeps its registers private.
    fn no_regs(&self) -> crate::Fault {
        no_regs(self.name, self.pc)
    }

    /// Sets `r` in the registers the return leaves.
    fn set(&mut self, r: Reg, v: u16) -> Result<(), crate::Fault> {
        if r.set(&mut self.regs, v) {
            Ok(())
        } else {
            Err(self.no_regs())
        }
    }
}

/// The fault of a trap whose service needs registers that the core keeps private.
fn no_regs(trap: &str, pc: u16) -> crate::Fault {
    crate::Fault::TrapNeedsRegisters {
        trap: trap.to_string(),
        pc,
    }
}

/// The function a trap call asks for.
enum Selected<'t> {
    /// The function, and where the caller goes on (past the inline code bytes).
    Function(&'t Function, u16),
    /// A code the trap does not serve.
    Unsupported(u16),
    /// A trap without functions: nothing to serve.
    Nothing,
}

/// What is left to do after a service.
enum Then {
    /// Return to the caller as the routine's `RET` / `RTS` would.
    Return,
    /// The call ends here, as `Served` says (the PC set, the run ended, or the call retried).
    End(Served),
}

impl crate::Machine {
    /// The value of `r` (`None` on a core that keeps it private).
    fn reg(&self, r: Reg) -> Option<u16> {
        r.get(&self.registers())
    }

    /// The value of `r`, or the fault of a core that keeps it private.
    fn call_reg(&self, call: &TrapCall<'_>, r: Reg) -> Result<u16, crate::Fault> {
        self.reg(r).ok_or_else(|| call.no_regs())
    }

    /// Serves the trap at `pc` (the PC is there; nothing of the routine has run).
    pub(crate) fn serve_trap(&mut self, pc: u16) -> Result<Served, crate::Fault> {
        let Some(trap) = self.traps.iter().find(|t| t.at == pc).cloned() else {
            return Ok(Served::Continue);
        };
        let sp = self.sp();
        let ret = self.return_address(sp);
        let (function, cursor) = match self.select(&trap, pc, ret)? {
            Selected::Function(f, cursor) => (f, cursor),
            Selected::Unsupported(code) => return Ok(Served::Unsupported { code }),
            Selected::Nothing => return Ok(Served::Continue),
        };
        let mut call = TrapCall {
            name: &trap.name,
            pc,
            cycles: trap.cycles,
            regs: self.registers(),
            cursor,
        };
        match self.serve(&mut call, &function.service)? {
            Then::End(served) => Ok(served),
            Then::Return => {
                self.return_to_caller(call, sp);
                Ok(Served::Continue)
            }
        }
    }

    /// The caller's return address, as the routine's `RET` / `RTS` would pop it.
    fn return_address(&self, sp: u16) -> u16 {
        match self.cpu() {
            Cpu::Z80 => self.read_word(sp),
            Cpu::Mos6502 | Cpu::Cmos65c02 => self
                .read_word(0x0100 | u16::from((sp as u8).wrapping_add(1)))
                .wrapping_add(1),
        }
    }

    /// The function `trap` is asked for: its only one, or the one of the code in a register,
    /// in memory, or in the bytes after the call (`ret`).
    fn select<'t>(&self, trap: &'t Trap, pc: u16, ret: u16) -> Result<Selected<'t>, crate::Fault> {
        let by_code = |v: u8| match trap.functions.iter().find(|f| f.code == [v]) {
            Some(f) => Selected::Function(f, ret),
            None => Selected::Unsupported(u16::from(v)),
        };
        Ok(match &trap.select {
            Select::Single => match trap.functions.first() {
                Some(f) => Selected::Function(f, ret),
                None => Selected::Nothing,
            },
            Select::Register(r) => {
                let v = self.reg(*r).ok_or_else(|| no_regs(&trap.name, pc))? as u8;
                by_code(v)
            }
            Select::Memory(at) => by_code(self.read_byte(*at)),
            Select::Inline => {
                let f = trap
                    .functions
                    .iter()
                    .find(|f| self.read_bytes(ret, f.code.len()) == f.code);
                match f {
                    Some(f) => Selected::Function(f, ret.wrapping_add(f.code.len() as u16)),
                    None => Selected::Unsupported(u16::from_be_bytes([
                        self.read_byte(ret),
                        self.read_byte(ret.wrapping_add(1)),
                    ])),
                }
            }
        })
    }

    /// Does what `service` says, one function per service.
    fn serve(&mut self, call: &mut TrapCall<'_>, service: &Service) -> Result<Then, crate::Fault> {
        match service {
            Service::Done => Ok(Then::End(Served::Done)),
            Service::JumpIndirect { vector } => {
                let to = self.read_word(*vector);
                self.set_pc(to);
                self.charge(call.cycles.max(1));
                Ok(Then::End(Served::Continue))
            }
            Service::Return => Ok(Then::Return),
            Service::PutChar { register, charset } => self.put_char(call, *register, *charset),
            Service::PutHex { register } => self.put_hex(call, *register),
            Service::PollChar {
                register,
                none,
                charset,
            } => self.poll_char(call, *register, *none, *charset),
            Service::Keyboard {
                store,
                flag,
                bit,
                charset,
            } => self.keyboard(call, (*store, *flag, *bit), *charset),
            Service::GetChar {
                register,
                echo,
                charset,
            } => self.get_char(call, *register, *echo, *charset),
            Service::Status {
                register,
                ready,
                none,
            } => self.status(call, *register, *ready, *none),
            Service::PrintString {
                register,
                terminator,
            } => self.print_string(call, *register, *terminator),
            Service::ReadLine { register } => self.read_line(call, *register),
            Service::DirectIo { register } => self.direct_io(call, *register),
            Service::PrintInline { newline } => Ok(self.print_inline(call, *newline)),
            Service::Newline { args } => {
                call.cursor = call.cursor.wrapping_add(u16::from(*args));
                self.console_mut().write(b'\n');
                Ok(Then::Return)
            }
            Service::Display { digits } => Ok(self.display(digits)),
            Service::Key {
                register,
                none,
                keys,
            } => self.key(call, *register, *none, keys),
        }
    }

    /// [`Service::PutChar`]: the register's character printed.
    fn put_char(
        &mut self,
        call: &TrapCall<'_>,
        register: Reg,
        charset: Charset,
    ) -> Result<Then, crate::Fault> {
        let v = self.call_reg(call, register)?;
        if let Some(c) = charset.to_host(v as u8) {
            self.console_mut().write(c);
        }
        Ok(Then::Return)
    }

    /// [`Service::PutHex`]: the register printed as two hex digits.
    fn put_hex(&mut self, call: &TrapCall<'_>, register: Reg) -> Result<Then, crate::Fault> {
        let v = self.call_reg(call, register)?;
        for b in format!("{:02X}", v as u8).bytes() {
            self.console_mut().write(b);
        }
        Ok(Then::Return)
    }

    /// [`Service::PollChar`]: a waiting character in the register, or `none`.
    fn poll_char(
        &mut self,
        call: &mut TrapCall<'_>,
        register: Reg,
        none: u8,
        charset: Charset,
    ) -> Result<Then, crate::Fault> {
        let v = match self.take_char() {
            Some(c) => charset.from_host(c),
            None if self.console_mut().is_starved() => return Ok(Then::End(Served::Wait)),
            None => none,
        };
        call.set(register, u16::from(v))?;
        Ok(Then::Return)
    }

    /// [`Service::Keyboard`]: a waiting character stored at `store`, and bit `bit` of `flag`
    /// set.
    fn keyboard(
        &mut self,
        call: &TrapCall<'_>,
        (store, flag, bit): (u16, u16, u8),
        charset: Charset,
    ) -> Result<Then, crate::Fault> {
        match self.take_char() {
            Some(c) => {
                let f = self.read_byte(flag) | (1 << bit);
                let written = self
                    .write_bytes(store, &[charset.from_host(c)])
                    .and_then(|_| self.write_bytes(flag, &[f]));
                if written.is_err() {
                    return Err(crate::Fault::UnmappedWrite {
                        addr: store,
                        value: c,
                        pc: call.pc,
                    });
                }
            }
            None if self.console_mut().is_starved() => return Ok(Then::End(Served::Wait)),
            None => {}
        }
        Ok(Then::Return)
    }

    /// [`Service::GetChar`]: the next character in the register (echoed when `echo`); none
    /// waiting, the call waits.
    fn get_char(
        &mut self,
        call: &mut TrapCall<'_>,
        register: Reg,
        echo: bool,
        charset: Charset,
    ) -> Result<Then, crate::Fault> {
        let Some(c) = self.take_char() else {
            return Ok(Then::End(Served::Wait));
        };
        call.set(register, u16::from(charset.from_host(c)))?;
        if echo {
            self.console_mut().write(c);
        }
        Ok(Then::Return)
    }

    /// [`Service::Status`]: `ready` or `none` in the register.
    fn status(
        &mut self,
        call: &mut TrapCall<'_>,
        register: Reg,
        ready: u8,
        none: u8,
    ) -> Result<Then, crate::Fault> {
        let v = if self.console_mut().status() != 0 {
            ready
        } else {
            none
        };
        // Looking is not waiting: forget that the queue was empty.
        self.console_mut().take_starved();
        call.set(register, u16::from(v))?;
        Ok(Then::Return)
    }

    /// [`Service::PrintString`]: the string at the register's address, up to `terminator`.
    fn print_string(
        &mut self,
        call: &TrapCall<'_>,
        register: Reg,
        terminator: u8,
    ) -> Result<Then, crate::Fault> {
        let mut a = self.call_reg(call, register)?;
        for _ in 0..0x10000 {
            let b = self.read_byte(a);
            if b == terminator {
                break;
            }
            self.console_mut().write(b);
            a = a.wrapping_add(1);
        }
        Ok(Then::Return)
    }

    /// [`Service::ReadLine`]: one line into CP/M's console buffer at the register's address.
    fn read_line(&mut self, call: &TrapCall<'_>, register: Reg) -> Result<Then, crate::Fault> {
        let buf = self.call_reg(call, register)?;
        let max = usize::from(self.read_byte(buf));
        loop {
            let Some(c) = self.take_char() else {
                return Ok(Then::End(Served::Wait));
            };
            if c == b'\r' || c == b'\n' {
                break;
            }
            self.console_mut().write(c);
            if self.trap_state.line.len() < max {
                self.trap_state.line.push(c);
            }
        }
        self.console_mut().write(b'\n');
        let line = std::mem::take(&mut self.trap_state.line);
        let mut bytes = vec![line.len() as u8];
        bytes.extend(&line);
        self.write_bytes(buf.wrapping_add(1), &bytes)
            .map_err(|_| crate::Fault::UnmappedWrite {
                addr: buf.wrapping_add(1),
                value: line.len() as u8,
                pc: call.pc,
            })?;
        Ok(Then::Return)
    }

    /// [`Service::DirectIo`]: CP/M's direct console I/O with the register's value.
    fn direct_io(&mut self, call: &mut TrapCall<'_>, register: Reg) -> Result<Then, crate::Fault> {
        let v = self.call_reg(call, register)? as u8;
        match v {
            0xFF => {
                let c = if self.console_mut().status() != 0 {
                    self.console_mut().read()
                } else {
                    0
                };
                self.console_mut().take_starved();
                call.set(Reg::A, u16::from(c))?;
            }
            0xFE => {
                let s = if self.console_mut().status() != 0 {
                    0xFF
                } else {
                    0
                };
                self.console_mut().take_starved();
                call.set(Reg::A, s)?;
            }
            c => self.console_mut().write(c),
        }
        Ok(Then::Return)
    }

    /// [`Service::PrintInline`]: the block whose address and length follow the call.
    fn print_inline(&mut self, call: &mut TrapCall<'_>, newline: bool) -> Then {
        let addr = self.read_word(call.cursor);
        let len = self.read_word(call.cursor.wrapping_add(2));
        call.cursor = call.cursor.wrapping_add(4);
        for i in 0..len {
            let b = self.read_byte(addr.wrapping_add(i));
            self.console_mut().write(b);
        }
        if newline {
            self.console_mut().write(b'\n');
        }
        Then::Return
    }

    /// [`Service::Display`]: the digits at these addresses, printed as a line when they
    /// changed.
    fn display(&mut self, digits: &[u16]) -> Then {
        let shown: Vec<u8> = digits.iter().map(|&a| self.read_byte(a)).collect();
        if self.trap_state.shown.as_ref() != Some(&shown) {
            let text: Vec<String> = shown.iter().map(|b| format!("{b:02X}")).collect();
            for b in format!("[{}]\n", text.join(" ")).bytes() {
                self.console_mut().write(b);
            }
            self.trap_state.shown = Some(shown);
        }
        Then::Return
    }

    /// [`Service::Key`]: the key of the next typed character in the register, `none` at the
    /// call after it (the key released).
    fn key(
        &mut self,
        call: &mut TrapCall<'_>,
        register: Reg,
        none: u8,
        keys: &[(u8, u8)],
    ) -> Result<Then, crate::Fault> {
        let code = if self.trap_state.key_held {
            self.trap_state.key_held = false;
            none
        } else {
            // Characters that are no key (a new line ending a scripted move) are skipped.
            loop {
                let Some(c) = self.take_char() else {
                    return Ok(Then::End(Served::Wait));
                };
                if let Some(k) = key_code(keys, c) {
                    self.trap_state.key_held = true;
                    break k;
                }
            }
        };
        call.set(register, u16::from(code))?;
        Ok(Then::Return)
    }

    /// Returns to the caller as `RET` / `RTS` would (at the call's cursor, the stack popped)
    /// and charges the routine's cycles.
    fn return_to_caller(&mut self, call: TrapCall<'_>, sp: u16) {
        let TrapCall {
            mut regs,
            cursor,
            cycles,
            ..
        } = call;
        let new_sp = match self.cpu() {
            Cpu::Z80 => sp.wrapping_add(2),
            Cpu::Mos6502 | Cpu::Cmos65c02 => 0x0100 | u16::from((sp as u8).wrapping_add(2)),
        };
        match &mut regs {
            Registers::Z80(r) => {
                r.pc = cursor;
                r.sp = new_sp;
            }
            Registers::Mos6502(r) => {
                r.pc = cursor;
                r.s = new_sp as u8;
            }
        }
        if !self.set_all_registers(&regs) {
            // A core without the main registers: only PC and SP change.
            self.set_pc(cursor);
            self.set_sp(new_sp);
        }
        self.sp_moved(sp, new_sp);
        self.charge(cycles.max(1));
    }

    /// The next input character, or `None` when none is waiting.
    fn take_char(&mut self) -> Option<u8> {
        let console = self.console_mut();
        if console.status() != 0 {
            Some(console.read())
        } else {
            None
        }
    }
}
