; 6502 branches out of range, with the distance.
; cpu: 6502
; error 6:13: branch out of range: the target is 128 bytes away
; error 10:13: branch out of range: the target is -260 bytes away
top:    nop
        bne fwd
        .res 128
fwd:    nop
        .res 126
        beq top
