; Values that do not fit where they go.
; cpu: z80
; error 10:12: value 300 does not fit in a byte (-128..255)
; error 11:15: value -129 does not fit in a byte (-128..255)
; error 12:14: value 256 does not fit in a byte (-128..255)
; error 13:12: value 70000 does not fit in a word (-32768..65535)
; error 14:12: index displacement 128 out of range (-128..127)
; error 15:13: port number 256 out of range (0..255)
; error 16:13: bit number 8 out of range (0..7)
        db 300
        db 1, -129
        ld a,256
        dw 70000
        ld (ix+128),a
        out (256),a
        set 8,b
