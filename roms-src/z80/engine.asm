; engine.asm - Kempelen's reference chess engine in Z80 assembly, host-protocol build.
;
; The host (kempelen-roms) writes a command, a position and its history into the protocol
; block (ram.inc, docs/PROTOCOL.md), starts the CPU at CODE_BASE and waits for the host call
; OUT (0FFh),A with A = 0; then it reads the results from the same block.
;
; Layout (layout.inc, the Kempelen machine's here; the addresses in the comments are those):
; CODE_BASE (0000h) reset jump and setup, CODE_BASE + 0100h-0F67h the generated tables
; (tables.inc, indexed by page, so they must start at a page), then the rest of the code.
; RAM from ENG_RAM (8000h, ram.inc); the Z80 stack below STACK_TOP, at the top of memory.

    include "layout.inc"
    include "ram.inc"
ITERATION_HOOK: equ 0       ; 1: the build has its own iteration_hook (search.inc)

    org CODE_BASE
    jp start
    include "setup.inc"
    include "page0.inc"
    defs CODE_BASE+0100h-$  ; (an error here means page 0 overflowed)
    include "tables.inc"

; start: run the command in P_CMD, store the status, signal "done" to the host.
start:
    ld sp,STACK_TOP
    ld a,(P_CMD)
    cp CMD_PERFT
    jr z,start_perft
    cp CMD_SEARCH
    jr z,start_search
    ld a,ST_BAD_COMMAND
    jr finish
start_perft:
    call eng_perft
    jr finish
start_search:
    call eng_search
finish:
    ld (R_STATUS),a
    xor a
    out (0FFh),a
    halt

    include "board.inc"
    include "movegen.inc"
    include "make.inc"
    include "search.inc"
    include "perft.inc"
engine_end:
