; The odd Z80 forms: EX AF,AF', IN A,(n), JP (HL), and the other odd ones.
; cpu: z80
; bytes: 08 DB FE E9 DD E9 FD E9 ED 78 ED 41 D3 10 E3 DD E3 ED 5E ED 46 FF C7 D7 ED B0 ED 4D ED 45 EB D9 F9
        ex af,af'
        in a,($FE)
        jp (hl)
        jp (ix)
        jp (iy)
        in a,(c)
        out (c),b
        out (16),a
        ex (sp),hl
        ex (sp),ix
        im 2
        im 0
        rst $38
        rst 0
        rst 10h
        ldir
        reti
        retn
        ex de,hl
        exx
        ld sp,hl
; listing: ED B0       16/21
