; console.asm - Kempelen's chess on a serial console, the way Microchess and Sargon met their
; players: a board drawn in characters, moves typed in coordinate notation, the machine's
; reply printed back. Everything runs inside the 6502: the board diagram, reading and
; checking the moves, the engine's search, the end of the game (checkmate, stalemate, and
; the draws by the fifty-move rule, threefold repetition and insufficient material). The
; same commands and replies as the Z80 build (z80/console.asm), routine for routine.
;
; The machine: the I/O page's console status $BF00 (bit 0 = a key is waiting), console data
; $BF01 (read a key / print a character) and host call $BFFF (0 = done), docs/MACHINE.md.
; The program starts at its reset vector and ends with the host call "done" when the player
; types q.
;
; The engine is the reference engine of engine.asm, included unchanged and called through
; its documented routines (setup, in_check, make, unmake, any_legal, gen_moves, next_move,
; enough_material, is_attacked, eng_search). One switch differs: ITERATION_HOOK is 1, so the
; search calls iteration_hook (con_thinking: the thinking line) after each completed
; iteration. The front end plays the host's part of the protocol itself: it keeps the game
; in the protocol block (P_SIDE ... P_HALF, BOARD) and the keys of the game positions for
; the repetition rule.
;
; Layout: the engine's tables must start at $E100 (they are indexed by page), so the engine
; keeps its place at $E000-$FFFF exactly as in engine.asm (without engine.asm's `start`,
; which the console's reset vector replaces), and the front end fills the ROM below it,
; from con_begin = $C000 to con_end. RAM: the engine's (ram.inc), the front end's at
; $A000-$AFFF (console_ram.inc), the hardware stack page.

HOST_ITER_CALL = 0      ; no host call "iteration complete": nobody outside is listening
ITERATION_HOOK = 1      ; the search calls iteration_hook (con_thinking) after each
                        ; completed iteration: the thinking line (search.inc)

        .include "ram.inc"
        .include "console_ram.inc"

        .org $C000
con_begin:
        .include "console_main.inc"
        .include "console_game.inc"
        .include "console_fen.inc"
        .include "console_io.inc"
iteration_hook = con_thinking
con_end:
        .res $E000-*            ; (an error here means the front end passed $E000)
engine_part:                    ; the engine part: $E000 to the vectors (ConsoleRom::engine_bytes)
        .include "setup.inc"
        .res $E100-*            ; (an error here means the code before the tables overflowed)
        .include "tables.inc"

        .include "board.inc"
        .include "history.inc"
        .include "movegen.inc"
        .include "make.inc"
        .include "search.inc"
        .include "perft.inc"
        .res $FFFA-*            ; (an error here means the code passed the vectors)
        .word con_halt          ; NMI
        .word con_start         ; reset
        .word con_halt          ; IRQ/BRK
