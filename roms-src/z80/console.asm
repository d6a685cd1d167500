; console.asm - Kempelen's chess on a serial console, the way Microchess and Sargon met their
; players: a board drawn in characters, moves typed in coordinate notation, the machine's
; reply printed back. Everything runs inside the Z80: the board diagram, reading and
; checking the moves, the engine's search, the end of the game (checkmate, stalemate, and
; the draws by the fifty-move rule, threefold repetition and insufficient material).
;
; The machine: everything the front end asks of it goes through the machine layer of
; console_machine.inc: sys_start (the entry), sys_putc, sys_getc and sys_exit. Here it is the
; Kempelen machine's: ports 00h (console status, bit 0 = a key is waiting), 01h (read a key /
; print a character) and 0FFh (host call; 0 = done), docs/MACHINE.md; the program starts at
; 0000h and ends with the host call "done" when the player types q. `kempelen build --target T`
; assembles the same files with another machine layer and layout (roms-src/targets/T): the
; header a machine needs before the engine (console_head.inc, empty here), where the program
; and its RAM lie (layout.inc), and the machine's ROM or system calls.
;
; The engine is the reference engine of engine.asm, included unchanged and called through
; its documented routines (setup, in_check, make, unmake, any_legal, gen_all, next_any,
; insufficient, eng_search). One switch differs: ITERATION_HOOK is 1, so the search calls
; iteration_hook (con_thinking: the thinking line) after each completed iteration where
; engine.asm makes the host call "iteration complete". The front end plays the host's part of the protocol itself:
; it keeps the game in the protocol block (P_SIDE ... P_HALF, BOARD) and the keys of the
; game positions for the repetition rule.
;
; Layout (layout.inc): a machine's header from LOAD_BASE, then from CODE_BASE the engine
; exactly as in engine.asm (reset jump, page 0 code, tables, code), then the front end and
; the machine layer from con_begin to con_end. RAM: the engine's from ENG_RAM (8000h here,
; ram.inc), the front end's 4 KB from CON_RAM (7000h here, console_ram.inc), the Z80 stack
; below STACK_TOP.

    include "layout.inc"
    include "ram.inc"
    include "console_ram.inc"
ITERATION_HOOK: equ 1       ; the search calls iteration_hook (con_thinking) after each
                            ; completed iteration: the thinking line (search.inc)

    org LOAD_BASE
    include "console_head.inc"
    defs CODE_BASE-$        ; (an error here means the header passed CODE_BASE)
    jp sys_start
    include "setup.inc"
    include "page0.inc"
    defs CODE_BASE+0100h-$  ; (an error here means page 0 overflowed)
    include "tables.inc"

    include "board.inc"
    include "movegen.inc"
    include "make.inc"
    include "search.inc"
    include "perft.inc"

con_begin:
    include "console_main.inc"
    include "console_game.inc"
    include "console_fen.inc"
    include "console_machine.inc"   ; before console_io.inc, whose con_putc and con_getc may
                                    ; be equates of sys_putc and sys_getc (pasmo takes
                                    ; an equate of a later label as 0)
    include "console_io.inc"
iteration_hook: equ con_thinking
con_end:
