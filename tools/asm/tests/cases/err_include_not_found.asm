; An include file that is not there.
; cpu: z80
; error 5:17: file 'inc/nothere.inc' not found
; error 6:16: file 'nothere.bin' not found
        include "inc/nothere.inc"
        incbin "nothere.bin"
