//! The machine's devices: the console and the host-call device, and where the CPUs find them.
//!
//! The Z80 reaches the devices through I/O ports (the contract in the project brief):
//!
//! | port | read | write |
//! |---|---|---|
//! | `0x00` | console status: bit 0 = a character is waiting | - |
//! | `0x01` | next console character (0 if none) | print a character |
//! | `0xFF` | - | host call: `0x00` = done, `0x01` = iteration complete (a stop the host resumes from, when asked for; else ignored), other values are reserved (error) |
//!
//! The 6502 has no ports, so the same devices sit in an I/O page of its address space
//! (default [`MOS6502_IO_PAGE`] = `$BF00`): address `page + n` behaves as Z80 port `n`, so
//! `$BF00` is the console status, `$BF01` the console data and `$BFFF` the host call.
//! Other ports and other I/O-page addresses are not connected: reads give `0xFF` (counted),
//! writes stop the run with an error.

use std::collections::VecDeque;
use std::fmt;

/// Console status port (read): bit 0 set when a character is waiting.
pub const PORT_CONSOLE_STATUS: u8 = 0x00;
/// Console data port: read the next character (0 if none), write to print one.
pub const PORT_CONSOLE_DATA: u8 = 0x01;
/// Host-call port (write).
pub const PORT_HOST_CALL: u8 = 0xFF;
/// Host-call value meaning "done": the run ends normally and the host reads results from RAM.
pub const HOST_CALL_DONE: u8 = 0x00;
/// Host-call value meaning "iteration complete": an 8-bit engine has written the results of a
/// finished iteration (docs/PROTOCOL.md). With [`Machine::set_stop_on_iteration`] the run
/// stops with [`StopReason::HostIteration`] after the instruction, and running again resumes
/// the program; otherwise the call does nothing.
///
/// [`Machine::set_stop_on_iteration`]: crate::Machine::set_stop_on_iteration
/// [`StopReason::HostIteration`]: crate::StopReason::HostIteration
pub const HOST_CALL_ITERATION: u8 = 0x01;
/// Default base of the 6502 I/O page.
pub const MOS6502_IO_PAGE: u16 = 0xBF00;

/// Where a console's characters come from and go to when it is attached to something outside
/// the emulator (the terminal, in `kempelen run`). `Send`, so that a machine may move to
/// another thread with all it holds.
pub trait ConsoleHost: Send {
    /// The next typed character, if one is waiting. Must not block.
    fn poll(&mut self) -> Option<u8>;
    /// Prints one character.
    fn put(&mut self, byte: u8);
    /// Whether no input can ever come again (standard input has ended). A program that then
    /// looks for input stops with [`StopReason::InputWait`](crate::StopReason::InputWait)
    /// instead of polling until its cycle budget is gone.
    fn is_closed(&self) -> bool {
        false
    }
}

/// A character the program took from the console, and when (see
/// [`Console::set_record_reads`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ConsoleRead {
    /// The run's cycle count at the end of the instruction that took the character (a Z80
    /// `IN` of the data port, a 6502 load from the data address), or after the host trap
    /// routine that took it (a personality's `get-char`, `read-line`, `direct-io`, `key`).
    pub cycles: u64,
    /// The character.
    pub byte: u8,
}

/// A character console, scripted by default: input comes from a queue the host fills and output
/// is captured, so tests and the host protocol can drive interactive programs. Attach a
/// [`ConsoleHost`] to connect it to a real terminal; while attached, output goes to the host
/// instead of the capture buffer, and input is taken from the queue first, then from the host.
#[derive(Default)]
pub struct Console {
    input: VecDeque<u8>,
    output: Vec<u8>,
    host: Option<Box<dyn ConsoleHost>>,
    /// Characters the program has read.
    chars_read: u64,
    /// Characters the program has written.
    chars_written: u64,
    /// Stop the run when the program looks for input that is not there (no host attached).
    stop_on_empty_input: bool,
    /// Set when the program found the queue empty while `stop_on_empty_input` is on; the bus
    /// takes it and turns it into [`BusEvent::InputWait`](crate::BusEvent::InputWait).
    starved: bool,
    /// Keep a [`ConsoleRead`] for every character read.
    record_reads: bool,
    /// The characters read, while `record_reads` is on.
    reads: Vec<ConsoleRead>,
    /// How many of `reads` have their cycle count (the others wait for
    /// [`Console::stamp_reads`] at the end of the instruction or trap that took them).
    stamped: usize,
}

impl fmt::Debug for Console {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Console")
            .field("input", &self.input)
            .field("output", &String::from_utf8_lossy(&self.output))
            .field("host", &self.host.is_some())
            .finish()
    }
}

impl Console {
    /// Queues characters for the program to read.
    pub fn push_input(&mut self, bytes: &[u8]) {
        self.input.extend(bytes);
    }

    /// Characters queued and not yet read.
    pub fn pending_input(&self) -> usize {
        self.input.len()
    }

    /// Everything the program printed since the last [`Console::take_output`] (nothing while a
    /// host is attached).
    pub fn output(&self) -> &[u8] {
        &self.output
    }

    /// Takes the captured output, leaving the buffer empty.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.output)
    }

    /// Connects the console to `host` (for example a terminal).
    pub fn attach(&mut self, host: Box<dyn ConsoleHost>) {
        self.host = Some(host);
    }

    /// Disconnects the host, returning it.
    pub fn detach(&mut self) -> Option<Box<dyn ConsoleHost>> {
        self.host.take()
    }

    /// With `on`, and no host attached, a program that reads the status or data register while
    /// the input queue is empty ends the run with
    /// [`StopReason::InputWait`](crate::StopReason::InputWait) after that instruction. A host
    /// then feeds an interactive program turn by turn: queue a line, run until the program
    /// waits again, read its output. The read itself behaves as usual (status 0, data 0), so
    /// running on resumes the program's polling loop.
    pub fn set_stop_on_empty_input(&mut self, on: bool) {
        self.stop_on_empty_input = on;
    }

    /// Whether the program found the queue empty since the last call (see
    /// [`Console::set_stop_on_empty_input`]); clears the flag.
    pub(crate) fn take_starved(&mut self) -> bool {
        std::mem::take(&mut self.starved)
    }

    /// Whether the program found the queue empty since the flag was last taken (the flag
    /// stays).
    pub(crate) fn is_starved(&self) -> bool {
        self.starved
    }

    /// With `on`, the console keeps a [`ConsoleRead`] for every character the program takes
    /// (only characters actually taken: a status read or a data read that finds nothing
    /// waiting adds none, so the list grows with the input, not with the time a program
    /// polls). Off by default.
    pub fn set_record_reads(&mut self, on: bool) {
        self.record_reads = on;
    }

    /// The characters read since recording began (or since [`Console::take_reads`]), each with
    /// the run's cycle count when it was taken.
    pub fn reads(&self) -> &[ConsoleRead] {
        &self.reads
    }

    /// Takes the recorded reads, leaving the list empty.
    pub fn take_reads(&mut self) -> Vec<ConsoleRead> {
        self.stamped = 0;
        std::mem::take(&mut self.reads)
    }

    /// Whether a recorded read still waits for its cycle count.
    #[inline]
    pub(crate) fn has_unstamped(&self) -> bool {
        self.stamped < self.reads.len()
    }

    /// Gives the reads taken since the last stamp the cycle count `cycles`.
    #[inline]
    pub(crate) fn stamp_reads(&mut self, cycles: u64) {
        if self.has_unstamped() {
            for r in &mut self.reads[self.stamped..] {
                r.cycles = cycles;
            }
            self.stamped = self.reads.len();
        }
    }

    /// Characters the program has read and written so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.chars_read, self.chars_written)
    }

    fn refill(&mut self) {
        if self.input.is_empty() {
            match self.host.as_mut() {
                Some(host) => match host.poll() {
                    Some(b) => self.input.push_back(b),
                    None => self.starved = host.is_closed(),
                },
                None => self.starved = self.stop_on_empty_input,
            }
        }
    }

    /// The status register: bit 0 = a character is waiting.
    pub fn status(&mut self) -> u8 {
        self.refill();
        u8::from(!self.input.is_empty())
    }

    /// The next character without taking it, or 0 if none is queued (the terminal is not
    /// polled).
    pub(crate) fn peek(&self) -> u8 {
        self.input.front().copied().unwrap_or(0)
    }

    /// The data register read: the next character, or 0 if none is waiting.
    pub fn read(&mut self) -> u8 {
        self.refill();
        match self.input.pop_front() {
            Some(b) => {
                self.chars_read += 1;
                if self.record_reads {
                    // The cycle count follows at the end of the instruction or trap.
                    self.reads.push(ConsoleRead { cycles: 0, byte: b });
                }
                b
            }
            None => 0,
        }
    }

    /// The data register write: prints `byte`.
    pub fn write(&mut self, byte: u8) {
        self.chars_written += 1;
        match self.host.as_mut() {
            Some(host) => host.put(byte),
            None => self.output.push(byte),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_input_and_captured_output() {
        let mut c = Console::default();
        assert_eq!(c.status(), 0);
        assert_eq!(c.read(), 0, "no character: 0");
        c.push_input(b"ab");
        assert_eq!(c.status(), 1);
        assert_eq!(c.read(), b'a');
        assert_eq!(c.read(), b'b');
        assert_eq!(c.status(), 0);
        c.write(b'x');
        c.write(b'y');
        assert_eq!(c.output(), b"xy");
        assert_eq!(c.take_output(), b"xy");
        assert!(c.output().is_empty());
        assert_eq!(c.counts(), (2, 2));
    }

    #[test]
    fn recorded_reads_wait_for_their_stamp() {
        let mut c = Console::default();
        c.set_record_reads(true);
        c.push_input(b"ab");
        assert_eq!(c.status(), 1);
        assert_eq!(c.read(), b'a');
        assert!(c.has_unstamped());
        c.stamp_reads(10);
        assert_eq!(c.read(), b'b');
        assert_eq!(c.read(), 0, "nothing waiting: no entry");
        c.stamp_reads(25);
        c.stamp_reads(40);
        assert!(!c.has_unstamped());
        let read = |cycles, byte| ConsoleRead { cycles, byte };
        assert_eq!(c.reads(), [read(10, b'a'), read(25, b'b')]);
        assert_eq!(c.take_reads().len(), 2);
        assert!(c.reads().is_empty() && !c.has_unstamped());
    }

    struct Fake {
        typed: Vec<u8>,
        printed: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    }
    impl ConsoleHost for Fake {
        fn poll(&mut self) -> Option<u8> {
            if self.typed.is_empty() {
                None
            } else {
                Some(self.typed.remove(0))
            }
        }
        fn put(&mut self, byte: u8) {
            self.printed.lock().unwrap().push(byte);
        }
    }

    #[test]
    fn attached_host_supplies_input_after_the_queue_and_receives_output() {
        let printed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut c = Console::default();
        c.push_input(b"q");
        c.attach(Box::new(Fake {
            typed: b"h".to_vec(),
            printed: printed.clone(),
        }));
        assert_eq!(c.read(), b'q');
        assert_eq!(c.status(), 1);
        assert_eq!(c.read(), b'h');
        assert_eq!(c.status(), 0);
        c.write(b'!');
        assert_eq!(*printed.lock().unwrap(), b"!");
        assert!(c.output().is_empty());
        assert!(c.detach().is_some());
    }

    #[test]
    fn empty_queue_starves_only_when_asked_and_without_a_host() {
        let mut c = Console::default();
        assert_eq!(c.status(), 0);
        assert!(!c.take_starved(), "off by default");
        c.set_stop_on_empty_input(true);
        assert_eq!(c.status(), 0);
        assert!(c.take_starved());
        assert!(!c.take_starved(), "taking clears it");
        assert_eq!(c.read(), 0);
        assert!(c.take_starved());
        c.push_input(b"x");
        assert_eq!(c.status(), 1);
        assert_eq!(c.read(), b'x');
        assert!(!c.take_starved());
        c.attach(Box::new(Fake {
            typed: Vec::new(),
            printed: Default::default(),
        }));
        assert_eq!(c.status(), 0);
        assert!(!c.take_starved(), "a terminal may still type");
    }
}
