; The 65C02's own opcodes and modes (--cpu 65c02); the bytes agree with ca65 --cpu 65c02
; (tools/asm/tests/differential.rs assembles the same set).
; cpu: 65c02
; bytes: 80 FE DA 5A FA 7A 64 10 74 10 9C 34 12 9E 34 12
; bytes: 04 10 0C 34 12 14 10 1C 34 12 1A 3A
; bytes: 12 10 32 10 52 10 72 10 92 10 B2 10 D2 10 F2 10
; bytes: 7C 34 12 6C 34 12 34 10 3C 34 12 89 01
; listing: 7C 34 12  6
        *= $0200
here    bra here
        phx
        phy
        plx
        ply
        stz $10
        stz $10,x
        stz $1234
        stz $1234,x
        tsb $10
        tsb $1234
        trb $10
        trb $1234
        inc a
        dec a
        ora ($10)
        and ($10)
        eor ($10)
        adc ($10)
        sta ($10)
        lda ($10)
        cmp ($10)
        sbc ($10)
        jmp ($1234,x)
        jmp ($1234)
        bit $10,x
        bit $1234,x
        bit #1
