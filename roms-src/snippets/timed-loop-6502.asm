; A timed loop on the 6502: DEX counts X down, BNE jumps back while X is not zero.
; Step it and watch X go from 5 to 0 and the cycles add up: LDX #n takes 2, each DEX 2, each
; BNE that jumps back 3 (4 if it crossed a page), the last one, which falls through, 2. Five
; times round: 2 + 5 * 2 + 4 * 3 + 2 = 26, then 2 + 4 for the host call "done". At the
; KIM-1's 1 MHz a cycle is a microsecond: Microchess's display loop waited like this.
        .org $0200
start:  ldx #5          ; 2 cycles
loop:   dex             ; 2
        bne loop        ; 3 while X > 0, 2 the last time
        lda #0          ; 2: the host call "done"
        sta $BFFF       ; 4
