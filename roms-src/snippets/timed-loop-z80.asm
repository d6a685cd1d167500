; A timed loop on the Z80: DJNZ counts B down and jumps back while B is not zero.
; Step it and watch B go from 5 to 0 and the T-states add up: LD B,n takes 7, each DJNZ that
; jumps back 13, the last one, which falls through, 8. Five times round: 7 + 4 * 13 + 8 = 67,
; then 4 + 11 for the host call "done". A delay of N T-states is how the programs of the time
; waited for a key or a display: at the ZX Spectrum's 3.5 MHz, 67 T-states are 19 us.
        org 0
start:  ld b,5          ; 7 T-states
loop:   djnz loop       ; 13 while B > 0 after the decrement, 8 the last time
        xor a           ; 4: A = 0, the host call "done"
        out (0FFh),a    ; 11
