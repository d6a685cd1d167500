//! The stack check: the bytes between the stack pointer and the top of the stack region, per
//! CPU, and the window of stack pointers the step loop may accept without looking closer.

use crate::Cpu;
use crate::error::Fault;
use crate::memory::AddrRange;

/// Stack bookkeeping. `depth` is the number of bytes in use below the top of the region.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StackCheck {
    pub(crate) region: AddrRange,
    /// `region.end + 1`.
    pub(crate) top: u32,
    /// Bytes in the region.
    pub(crate) size: i64,
    pub(crate) depth: i64,
    pub(crate) max_depth: i64,
}

impl StackCheck {
    pub(crate) fn new(region: AddrRange) -> Self {
        StackCheck {
            region,
            top: u32::from(region.end) + 1,
            size: i64::from(region.len()),
            depth: 0,
            max_depth: 0,
        }
    }

    /// Depth for a given SP, computed from scratch (the Z80 always; the 6502 after `TXS`).
    pub(crate) fn depth_of(&self, cpu: Cpu, sp: u16) -> i64 {
        match cpu {
            // Wraps like the Z80's SP: popping above the top gives a huge depth.
            Cpu::Z80 => i64::from(self.top.wrapping_sub(u32::from(sp)) & 0xFFFF),
            // 6502: the next push goes to $0100+S; empty when that is the region's end.
            Cpu::Mos6502 | Cpu::Cmos65c02 => i64::from(self.region.end) - i64::from(sp | 0x0100),
        }
    }

    /// The fault for an out-of-region depth.
    pub(crate) fn fault(&self, cpu: Cpu, sp: u16, pc: u16) -> Fault {
        let overflow = match cpu {
            Cpu::Z80 => self.depth <= self.size + (0x10000 - self.size) / 2,
            Cpu::Mos6502 | Cpu::Cmos65c02 => self.depth > self.size,
        };
        if overflow {
            Fault::StackOverflow {
                sp,
                pc,
                region: self.region,
            }
        } else {
            Fault::StackUnderflow {
                sp,
                pc,
                region: self.region,
            }
        }
    }
}

/// The window of stack pointers that [`stack_check`](crate::step) may accept without
/// `track_stack`, as (lowest SP, width): on the Z80 every SP from the deepest point so far
/// to the top of the region, where the depth is within the region and sets no new maximum;
/// everything without a stack region; nothing on the 6502, whose depth follows each move.
pub(crate) fn stack_window(cpu: Cpu, stack: Option<&StackCheck>) -> (u16, u16) {
    match (cpu, stack) {
        (_, None) => (0, u16::MAX),
        (Cpu::Z80, Some(s)) => ((s.top - s.max_depth as u32) as u16, s.max_depth as u16),
        (Cpu::Mos6502 | Cpu::Cmos65c02, Some(_)) => (0, 0),
    }
}
