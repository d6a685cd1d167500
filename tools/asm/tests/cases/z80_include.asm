; INCLUDE finds files relative to the including file; INCBIN inserts raw bytes.
; cpu: z80
; bytes: 3E 07 C9 DE AD BE EF
        include "inc/consts.inc"
        ld a,SEVEN
        ret
        incbin "inc/four.bin"
