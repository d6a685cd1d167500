; engine.asm - Kempelen's reference chess engine in NMOS 6502 assembly, host-protocol build.
;
; The host (kempelen-roms) writes a command, a position and its history into the protocol
; block (ram.inc, docs/PROTOCOL.md), resets the CPU (the reset vector points at `start`, the
; image's first byte) and waits for the host call "done" (a write of $00 to HOST_CALL); then
; it reads the results from the same block. With HOST_ITER_CALL = 1 the search also makes the host call
; $01 ("iteration complete") after every completed iteration.
;
; Layout (layout.inc, the Kempelen machine's here; the addresses in the comments are those):
; the image fills the top 10.25 KB of the ROM, ENGINE_BASE = $D700 to $FFFF (at most 12 KB
; may be taken, but the console program, front end and engine in one 16 KB ROM from $C000,
; leaves the engine these 10.25 KB). $D700 setup, $D800-$E667 the generated tables
; (tables.inc, indexed by page, so they must start at a page; the holes of the pawn key pages
; hold small routines, hole_*.inc), then the rest of the code, and (VECTORS) the vectors at
; $FFFA. Tables that need no ROM are built in RAM at setup (SQ_BIT, LOW_FILE, CLR_LOW:
; occ_init). RAM and zero page as in ram.inc; the hardware stack holds only the return
; addresses of the routine being run (the search frames are in RAM).

HOST_ITER_CALL = 1      ; host call $01 after every completed iteration: the host reports
                        ; the iteration (docs/PROTOCOL.md); the machine ignores it unless
                        ; the host asked to stop there (0 leaves the call out)
ITERATION_HOOK = 0      ; 1: jsr iteration_hook after every completed iteration (the
                        ; console build, console.asm: its thinking line)

        .include "layout.inc"
        .include "ram.inc"

        .org ENGINE_BASE
; start: run the command in P_CMD, store the status, signal "done" to the host.
start:
        ldx #$FF
        txs
        cld
        lda P_CMD
        cmp #CMD_PERFT
        beq @perft
        cmp #CMD_SEARCH
        beq @search
        lda #ST_BAD_COMMAND
        bne finish
@perft:
        jsr eng_perft
        jmp finish
@search:
        jsr eng_search
finish:
        sta R_STATUS
        lda #HC_DONE
        sta HOST_CALL
halt:
        jmp halt

        .include "engine_code.inc"
engine_end:
.if VECTORS
vec_reset = start
vec_halt = halt
.endif
        .include "vectors.inc"
