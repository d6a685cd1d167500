; console.asm - Kempelen's chess on a serial console, the way Microchess and Sargon met their
; players: a board drawn in characters, moves typed in coordinate notation, the machine's
; reply printed back. Everything runs inside the 6502: the board diagram, reading and
; checking the moves, the engine's search, the end of the game (checkmate, stalemate, and
; the draws by the fifty-move rule, threefold repetition and insufficient material). The
; same commands and replies as the Z80 build (z80/console.asm), routine for routine.
;
; The machine: everything the front end asks of it goes through the machine layer of
; console_machine.inc: sys_start (the entry), sys_putc, sys_getc and sys_exit. Here it is the
; Kempelen machine's: the I/O page's console status $BF00 (bit 0 = a key is waiting), console
; data $BF01 (read a key / print a character) and host call $BFFF (0 = done),
; docs/MACHINE.md; the program starts at its reset vector and ends with the host call "done"
; when the player types q. `kempelen build --target T` assembles the same files with another
; machine layer and layout (roms-src/targets/T): the header a machine needs before the front
; end (console_head.inc, empty here), where the program, its RAM and zero page lie
; (layout.inc), and the machine's ROM or system calls.
;
; The engine is the reference engine of engine.asm, included unchanged and called through
; its documented routines (setup, in_check, make, unmake, any_legal, gen_moves, next_move,
; enough_material, is_attacked, eng_search). One switch differs: ITERATION_HOOK is 1, so the
; search calls iteration_hook (con_thinking: the thinking line) after each completed
; iteration. The front end plays the host's part of the protocol itself: it keeps the game
; in the protocol block (P_SIDE ... P_HALF, BOARD) and the keys of the game positions for
; the repetition rule.
;
; Layout (layout.inc; the Kempelen machine's addresses in parentheses): the engine's tables
; must start at a page (they are indexed by page), so the engine keeps its place at
; ENGINE_BASE ($D700-$FFFF) exactly as in engine.asm (without engine.asm's `start`, which the
; console's entry replaces), and the front end with the machine layer fills the image below
; it, from con_begin (LOAD_BASE = $C000, after a machine's header) to con_end. RAM: the
; engine's (ram.inc), the front end's 4 KB from CON_RAM ($A000, console_ram.inc), the
; hardware stack page.

HOST_ITER_CALL = 0      ; no host call "iteration complete": nobody outside is listening
ITERATION_HOOK = 1      ; the search calls iteration_hook (con_thinking) after each
                        ; completed iteration: the thinking line (search.inc)

        .include "layout.inc"
        .include "ram.inc"
        .include "console_ram.inc"

        .org LOAD_BASE
        .include "console_head.inc"
con_begin:
        .include "console_main.inc"
        .include "console_game.inc"
        .include "console_fen.inc"
        .include "console_io.inc"
        .include "console_machine.inc"
iteration_hook = con_thinking
con_end:
        .res ENGINE_BASE-*      ; (an error here means the front end passed ENGINE_BASE)
engine_part:                    ; the engine part: ENGINE_BASE to the end (ConsoleRom::engine_bytes)
        .include "engine_code.inc"
.if VECTORS                     ; (a target's machine file may name neither)
vec_reset = sys_start
vec_halt = sys_halt
.endif
        .include "vectors.inc"
