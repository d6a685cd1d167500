; Every error of a run is reported, not just the first.
; cpu: 6502
; error 8:9: unknown mnemonic 'lad'
; error 9:13: undefined symbol 'missing'
; error 10:17: value 999 does not fit in a byte
; error 12:13: branch out of range
start:  nop
        lad #1
        jmp missing
        .byte 1,999
        .res 200
        bne start
