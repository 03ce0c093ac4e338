/*
 * A tiny PNG writer: 8-bit RGBA, no compression (zlib "stored" blocks), rows written top first
 * from bottom-up GL pixels. Enough for a test image; no library needed.
 */
#ifndef SCENE_PNG_H
#define SCENE_PNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t png_crc_table[256];

static void png_crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        png_crc_table[n] = c;
    }
}

static uint32_t png_crc(uint32_t crc, const unsigned char *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        crc = png_crc_table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return crc;
}

static void png_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* Writes one chunk: length, type, data, CRC of type and data. */
static int png_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t len)
{
    unsigned char head[8], tail[4];
    uint32_t crc;
    png_be32(head, len);
    memcpy(head + 4, type, 4);
    crc = png_crc(0xFFFFFFFFu, head + 4, 4);
    crc = png_crc(crc, data, len) ^ 0xFFFFFFFFu;
    png_be32(tail, crc);
    return fwrite(head, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len) && fwrite(tail, 1, 4, f) == 4;
}

/* Writes `pixels` (RGBA, `height` rows of `width` pixels, bottom row first as glReadPixels
 * gives them) to `path`. Returns 0 on success. */
static int write_png(const char *path, const unsigned char *pixels, int width, int height)
{
    static const unsigned char signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    const size_t row = (size_t)width * 4 + 1, raw = row * (size_t)height;
    const size_t blocks = (raw + 65534) / 65535, idat = 2 + raw + blocks * 5 + 4;
    unsigned char ihdr[13], *z = malloc(idat), *p = z;
    uint32_t a = 1, b = 0;
    size_t left = raw, y = 0, x = 0;
    FILE *f;
    int ok;
    if (!z)
        return -1;
    png_crc_init();
    png_be32(ihdr, (uint32_t)width);
    png_be32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8, ihdr[9] = 6, ihdr[10] = 0, ihdr[11] = 0, ihdr[12] = 0; /* 8-bit RGBA */
    *p++ = 0x78, *p++ = 0x01; /* zlib header: deflate, no dictionary */
    while (left > 0) {
        size_t n = left < 65535 ? left : 65535;
        *p++ = left == n; /* BFINAL on the last block, BTYPE 00: stored */
        *p++ = (unsigned char)n, *p++ = (unsigned char)(n >> 8);
        *p++ = (unsigned char)~n, *p++ = (unsigned char)(~n >> 8);
        for (size_t i = 0; i < n; i++) {
            /* Byte x of row y of the filtered image: filter type 0, then the row's pixels. */
            unsigned char c = x == 0 ? 0 : pixels[((size_t)(height - 1) - y) * (row - 1) + (x - 1)];
            *p++ = c;
            a = (a + c) % 65521, b = (b + a) % 65521;
            if (++x == row)
                x = 0, y++;
        }
        left -= n;
    }
    png_be32(p, (b << 16) | a); /* Adler-32 */
    f = fopen(path, "wb");
    ok = f && fwrite(signature, 1, 8, f) == 8 && png_chunk(f, "IHDR", ihdr, 13) &&
         png_chunk(f, "IDAT", z, (uint32_t)idat) && png_chunk(f, "IEND", NULL, 0);
    if (f)
        ok &= fclose(f) == 0;
    free(z);
    return ok ? 0 : -1;
}

#endif
