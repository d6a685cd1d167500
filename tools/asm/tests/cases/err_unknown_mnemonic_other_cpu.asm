; A Z80 mnemonic in a 6502 source says so.
; cpu: 6502
; error 5:9: unknown mnemonic 'djnz'
; note: 'DJNZ' is a Z80 mnemonic, but this source is assembled for the 6502
        djnz loop
