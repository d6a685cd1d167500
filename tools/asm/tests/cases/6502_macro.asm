; ca65-style .macro/.endmacro with parameters and cheap local labels.
; cpu: 6502
; bytes: A2 05 CA D0 FD A2 03 CA D0 FD 60
        .macro delay n
        ldx #n
@l:     dex
        bne @l
        .endmacro
        delay 5
        delay 3
        rts
