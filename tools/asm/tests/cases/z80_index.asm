; IX/IY with positive, negative, zero and symbolic displacements.
; cpu: z80
; bytes: DD 7E 05 FD 7E FB DD 7E 00 DD 7E 00 DD 36 7F 80 FD 77 80 DD 34 03 DD CB 04 CE FD CB FE 46
field   equ 3
        ld a,(ix+5)
        ld a,(iy-5)
        ld a,(ix+0)
        ld a,(ix)
        ld (ix+127),-128
        ld (iy-128),a
        inc (ix+field)
        set 1,(ix+field+1)
        bit 0,(iy-2)
