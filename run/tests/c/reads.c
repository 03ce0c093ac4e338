/* Every read into memory writes exactly the bytes the GL writes: tests/unchanged.rs runs this
 * directly and through glcmd-run and compares every line.
 *
 * Each read goes into a buffer of sentinel bytes; a line names the read and the pack state, the
 * GL error after it, the byte ranges that no longer hold the sentinel and a hash of the whole
 * buffer, so a byte written before, between rows, between images or after the image shows up.
 * The reads: glReadPixels and glReadnPixels (also of a rectangle partly outside the framebuffer,
 * where the GL writes only the pixels inside), glGetTexImage of 2D and 3D levels,
 * glGetTextureImage, glGetTextureSubImage, the compressed reads, glGetBufferSubData and
 * glGetNamedBufferSubData, under pack states of every parameter (row length, skip pixels, rows
 * and images, image height, alignment 1/2/4/8, swap bytes, LSB first); then queries that write
 * arrays with room for more than they write (sources, logs, names, glGetSynciv,
 * glGetInternalformativ, glGetProgramBinary, glGetDebugMessageLog, glGetnUniformfv with a
 * bufSize in bytes that is no whole number of values, ...). Then outputs that are offsets into a bound
 * buffer: glGetQueryObject* with a buffer bound to GL_QUERY_BUFFER (offsets 0 and 8, one past the
 * end), glGetQueryBufferObject*, and reads into GL_PIXEL_PACK_BUFFER at offsets, each buffer read
 * back whole. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <stdint.h>
#include <string.h>

#define PROGRAM "reads"
#include "egl_pbuffer.h"

#define SENTINEL 0xAB
#define ROOM 16384
static unsigned char out[ROOM];

static void fill(void) { memset(out, SENTINEL, sizeof out); }

/* `name err=E written=a-b,c-d hash=H` for the first `n` bytes of `out`. */
static void report_bytes(const char *name, const unsigned char *b, size_t n) {
    GLenum err = glGetError();
    uint64_t hash = 1469598103934665603ull;
    printf("%s err=0x%x written=", name, err);
    int any = 0;
    for (size_t i = 0; i < n;) {
        if (b[i] == SENTINEL) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && b[j] != SENTINEL) j++;
        printf("%s%zu-%zu", any ? "," : "", i, j);
        any = 1;
        i = j;
    }
    for (size_t i = 0; i < n; i++) hash = (hash ^ b[i]) * 1099511628211ull;
    printf("%s hash=%016llx\n", any ? "" : "none", (unsigned long long)hash);
}

static void report(const char *name) { report_bytes(name, out, sizeof out); }

/* Pack states: every parameter on its own and in combination. */
struct pack {
    const char *name;
    GLint row_length, skip_pixels, skip_rows, skip_images, image_height, alignment, swap, lsb;
};
static const struct pack PACKS[] = {
    {"default", 0, 0, 0, 0, 0, 4, 0, 0},     {"align1", 0, 0, 0, 0, 0, 1, 0, 0},
    {"align2", 0, 0, 0, 0, 0, 2, 0, 0},      {"align8", 0, 0, 0, 0, 0, 8, 0, 0},
    {"rowlen11", 11, 0, 0, 0, 0, 4, 0, 0},   {"skippix2", 0, 2, 0, 0, 0, 4, 0, 0},
    {"skiprows1", 0, 0, 1, 0, 0, 4, 0, 0},   {"images", 0, 0, 0, 1, 5, 4, 0, 0},
    {"swap", 0, 0, 0, 0, 0, 4, 1, 0},        {"lsb", 0, 0, 0, 0, 0, 4, 0, 1},
    {"all", 13, 1, 2, 1, 6, 8, 1, 1},        {"all_align1", 7, 3, 1, 2, 4, 1, 0, 0},
};

static void set_pack(const struct pack *p) {
    glPixelStorei(GL_PACK_ROW_LENGTH, p->row_length);
    glPixelStorei(GL_PACK_SKIP_PIXELS, p->skip_pixels);
    glPixelStorei(GL_PACK_SKIP_ROWS, p->skip_rows);
    glPixelStorei(GL_PACK_SKIP_IMAGES, p->skip_images);
    glPixelStorei(GL_PACK_IMAGE_HEIGHT, p->image_height);
    glPixelStorei(GL_PACK_ALIGNMENT, p->alignment);
    glPixelStorei(GL_PACK_SWAP_BYTES, p->swap);
    glPixelStorei(GL_PACK_LSB_FIRST, p->lsb);
}

/* A pattern without the sentinel byte. */
static void pattern(unsigned char *b, size_t n, int seed) {
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)((i * 13 + seed) % 171);
}

static GLuint tex2d, tex3d, texc;

static void make_textures(void) {
    unsigned char data[8 * 8 * 4 * 4];
    pattern(data, sizeof data, 1);
    GLuint fbo, color;
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    printf("fbo_complete=%d\n", glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);

    glGenTextures(1, &tex2d);
    glBindTexture(GL_TEXTURE_2D, tex2d);
    pattern(data, sizeof data, 5);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16, 3, 3, 0, GL_RGBA, GL_UNSIGNED_SHORT, data);
    glGenTextures(1, &tex3d);
    glBindTexture(GL_TEXTURE_3D, tex3d);
    pattern(data, sizeof data, 9);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 3, 2, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    /* RGTC1: 8x8 texels, four blocks of 8 bytes. */
    glGenTextures(1, &texc);
    glBindTexture(GL_TEXTURE_2D, texc);
    pattern(data, 32, 3);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 32, data);
    glBindTexture(GL_TEXTURE_2D, tex2d);
    printf("textures_err=0x%x\n", glGetError());
}

static void pixel_reads(const struct pack *p) {
    char name[128];
    static const struct {
        const char *name;
        GLenum format, type;
    } PAIRS[] = {{"rgba_ub", GL_RGBA, GL_UNSIGNED_BYTE},
                 {"rgb_ub", GL_RGB, GL_UNSIGNED_BYTE},
                 {"red_us", GL_RED, GL_UNSIGNED_SHORT},
                 {"rg_float", GL_RG, GL_FLOAT},
                 {"bgra_565", GL_RGB, GL_UNSIGNED_SHORT_5_6_5}};
    set_pack(p);
    for (size_t i = 0; i < sizeof PAIRS / sizeof PAIRS[0]; i++) {
        fill();
        glReadPixels(1, 2, 3, 2, PAIRS[i].format, PAIRS[i].type, out);
        snprintf(name, sizeof name, "readpixels %s %s", p->name, PAIRS[i].name);
        report(name);
        fill();
        glReadnPixels(1, 2, 3, 2, PAIRS[i].format, PAIRS[i].type, ROOM, out);
        snprintf(name, sizeof name, "readnpixels %s %s", p->name, PAIRS[i].name);
        report(name);
    }
    /* Partly outside the 8x8 framebuffer: the GL writes only the pixels inside. */
    fill();
    glReadPixels(-2, 5, 5, 5, GL_RGBA, GL_UNSIGNED_BYTE, out);
    snprintf(name, sizeof name, "readpixels_clipped %s", p->name);
    report(name);
    fill();
    glReadnPixels(6, -1, 4, 3, GL_RGB, GL_UNSIGNED_BYTE, ROOM, out);
    snprintf(name, sizeof name, "readnpixels_clipped %s", p->name);
    report(name);
    /* Too small a bufSize: an error, nothing written. */
    fill();
    glReadnPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 20, out);
    snprintf(name, sizeof name, "readnpixels_small %s", p->name);
    report(name);

    fill();
    glBindTexture(GL_TEXTURE_2D, tex2d);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB, GL_UNSIGNED_SHORT, out);
    snprintf(name, sizeof name, "gettexImage_2d %s", p->name);
    report(name);
    fill();
    glBindTexture(GL_TEXTURE_3D, tex3d);
    glGetTexImage(GL_TEXTURE_3D, 0, GL_RGB, GL_UNSIGNED_BYTE, out);
    snprintf(name, sizeof name, "getteximage_3d %s", p->name);
    report(name);
    fill();
    glGetTextureImage(tex3d, 0, GL_RGBA, GL_UNSIGNED_BYTE, ROOM, out);
    snprintf(name, sizeof name, "gettextureimage_3d %s", p->name);
    report(name);
    fill();
    glGetTextureImage(tex2d, 0, GL_RED, GL_UNSIGNED_SHORT, ROOM, out);
    snprintf(name, sizeof name, "gettextureimage_2d %s", p->name);
    report(name);
    fill();
    glGetTextureSubImage(tex3d, 0, 1, 0, 1, 2, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, ROOM, out);
    snprintf(name, sizeof name, "gettexturesubimage_3d %s", p->name);
    report(name);
    fill();
    glGetTextureSubImage(tex2d, 0, 1, 1, 0, 2, 2, 1, GL_RGBA, GL_UNSIGNED_SHORT, ROOM, out);
    snprintf(name, sizeof name, "gettexturesubimage_2d %s", p->name);
    report(name);
    fill();
    glGetTextureImage(tex3d, 0, GL_RGBA, GL_UNSIGNED_BYTE, 7, out);
    snprintf(name, sizeof name, "gettextureimage_small %s", p->name);
    report(name);
}

static void compressed_reads(void) {
    struct pack def = PACKS[0];
    set_pack(&def);
    fill();
    glBindTexture(GL_TEXTURE_2D, texc);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, out);
    report("getcompressedteximage");
    fill();
    glGetCompressedTextureImage(texc, 0, ROOM, out);
    report("getcompressedtextureimage");
    fill();
    glGetCompressedTextureSubImage(texc, 0, 4, 4, 0, 4, 4, 1, ROOM, out);
    report("getcompressedtexturesubimage");
    fill();
    glGetCompressedTextureImage(texc, 0, 16, out);
    report("getcompressedtextureimage_small");

    glBindTexture(GL_TEXTURE_2D, tex2d);
}

static void buffer_reads(void) {
    unsigned char data[64];
    pattern(data, sizeof data, 7);
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(GL_COPY_READ_BUFFER, b);
    glBufferData(GL_COPY_READ_BUFFER, sizeof data, data, GL_STATIC_DRAW);
    fill();
    glGetBufferSubData(GL_COPY_READ_BUFFER, 4, 9, out + 3);
    report("getbuffersubdata");
    fill();
    glGetNamedBufferSubData(b, 60, 4, out + 1);
    report("getnamedbuffersubdata");
    fill();
    glGetNamedBufferSubData(b, 60, 8, out);
    report("getnamedbuffersubdata_past_end");
    glDeleteBuffers(1, &b);
}

static GLuint shader(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

static GLuint program, vao;

static void array_queries(void) {
    const char *vs_src = "#version 450 core\nuniform vec4 offset_long_name;\nout vec4 v;\n"
                         "void main() { gl_Position = offset_long_name; v = offset_long_name; }\n";
    const char *fs_src = "#version 450 core\nin vec4 v;\nout vec4 color;\nvoid main() { color = v; }\n";
    const char *bad_src = "#version 450 core\nvoid main() { nope(); }\n";
    GLuint vs = shader(GL_VERTEX_SHADER, vs_src), fs = shader(GL_FRAGMENT_SHADER, fs_src);
    GLuint bad = shader(GL_FRAGMENT_SHADER, bad_src);
    program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    GLsizei length = -7;
    char line[64];

    fill();
    glGetShaderSource(vs, 200, &length, (char *)out);
    snprintf(line, sizeof line, "getshadersource length=%d", length);
    report(line);
    fill();
    glGetShaderSource(vs, 10, &length, (char *)out);
    snprintf(line, sizeof line, "getshadersource_short length=%d", length);
    report(line);
    fill();
    length = -7;
    glGetShaderInfoLog(bad, 2000, &length, (char *)out);
    /* The log's text is the driver's; only whether bytes past it were written matters. */
    printf("getshaderinfolog err=0x%x nul_at_length=%d past_nul_kept=%d\n", glGetError(),
           length >= 0 && out[length] == 0, length >= 0 && out[length + 1] == SENTINEL);
    fill();
    length = -7;
    glGetProgramInfoLog(program, 2000, &length, (char *)out);
    printf("getprograminfolog err=0x%x nul_at_length=%d past_nul_kept=%d\n", glGetError(),
           length >= 0 && out[length] == 0, length >= 0 && out[length + 1] == SENTINEL);
    fill();
    GLint size = -1;
    GLenum type = 0;
    glGetActiveUniform(program, 0, 100, &length, &size, &type, (char *)out);
    snprintf(line, sizeof line, "getactiveuniform length=%d size=%d type=0x%x", length, size, type);
    report(line);
    fill();
    glGetProgramResourceName(program, GL_UNIFORM, 0, 100, &length, (char *)out);
    snprintf(line, sizeof line, "getprogramresourcename length=%d", length);
    report(line);
    fill();
    glGetAttachedShaders(program, 8, &length, (GLuint *)out);
    snprintf(line, sizeof line, "getattachedshaders count=%d", length);
    printf("%s err=0x%x past_kept=%d\n", line, glGetError(), out[length * 4] == SENTINEL);
    fill();
    glObjectLabel(GL_PROGRAM, program, -1, "a label");
    glGetObjectLabel(GL_PROGRAM, program, 100, &length, (char *)out);
    snprintf(line, sizeof line, "getobjectlabel length=%d", length);
    report(line);
    fill();
    GLenum props[] = {GL_TYPE, GL_LOCATION, GL_ARRAY_SIZE};
    glGetProgramResourceiv(program, GL_UNIFORM, 0, 3, props, 10, &length, (GLint *)out);
    printf("getprogramresourceiv count=%d err=0x%x past_kept=%d\n", length, glGetError(),
           out[3 * 4] == SENTINEL && out[10 * 4 - 1] == SENTINEL);
    fill();
    GLint binary_length = 0;
    glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &binary_length);
    GLenum format = 0;
    if (binary_length > 0 && binary_length < ROOM - 64) {
        glGetProgramBinary(program, ROOM, &length, &format, out);
        printf("getprogrambinary err=0x%x length_matches=%d past_kept=%d\n", glGetError(), length == binary_length,
               length >= 0 && out[length] == SENTINEL && out[ROOM - 1] == SENTINEL);
    } else {
        printf("getprogrambinary none=%d\n", binary_length);
    }
    fill();
    GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glGetSynciv(sync, GL_OBJECT_TYPE, 8, &length, (GLint *)out);
    snprintf(line, sizeof line, "getsynciv count=%d", length);
    report(line);
    glDeleteSync(sync);
    fill();
    glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, 2, (GLint *)out);
    report("getinternalformativ_samples_2");
    fill();
    glGetInternalformativ(GL_TEXTURE_2D, GL_RGBA8, GL_INTERNALFORMAT_SUPPORTED, 16, (GLint *)out);
    report("getinternalformativ_supported_16");
    fill();
    GLint location = glGetUniformLocation(program, "offset_long_name");
    glGetnUniformfv(program, location, 64, (GLfloat *)out);
    report("getnuniformfv");
    fill();
    /* A bufSize in bytes that is no whole number of values: nothing past the vec4. */
    glGetnUniformfv(program, location, 18, (GLfloat *)out);
    report("getnuniformfv_18");
    fill();
    GLsizei log_length = -7;
    glEnable(GL_DEBUG_OUTPUT);
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 7, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                         "marker");
    GLuint got = glGetDebugMessageLog(4, 1000, NULL, NULL, (GLuint *)out, NULL, &log_length, (GLchar *)(out + 64));
    snprintf(line, sizeof line, "getdebugmessagelog got=%u length=%d", got, log_length);
    report(line);
    fill();
    glGetShaderPrecisionFormat(GL_FRAGMENT_SHADER, GL_HIGH_FLOAT, (GLint *)out, (GLint *)(out + 16));
    report("getshaderprecisionformat");
    fill();
    const char *names[] = {"offset_long_name", "missing"};
    glGetUniformIndices(program, 2, names, (GLuint *)(out + 4));
    report("getuniformindices");
    glDeleteShader(vs);
    glDeleteShader(fs);
    glDeleteShader(bad);
}

/* A query of 5 points drawn, and buffers of sentinels to write its result into. */
static GLuint points_query(void) {
    GLuint q;
    glGenQueries(1, &q);
    glUseProgram(program);
    glBeginQuery(GL_PRIMITIVES_GENERATED, q);
    glDrawArrays(GL_POINTS, 0, 5);
    glEndQuery(GL_PRIMITIVES_GENERATED);
    glUseProgram(0);
    return q;
}

static GLuint sentinel_buffer(GLenum target, GLsizeiptr size) {
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    fill();
    glBufferData(target, size, out, GL_DYNAMIC_READ);
    return b;
}

static void report_buffer(const char *name, GLuint b, GLsizeiptr size) {
    printf("%s_err=0x%x\n", name, glGetError());
    fill();
    glGetNamedBufferSubData(b, 0, size, out);
    report_bytes(name, out, size);
}

static void offsets_into_buffers(void) {
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    GLuint q = points_query();
    GLuint qb = sentinel_buffer(GL_QUERY_BUFFER, 32);
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, (void *)8);
    printf("query_to_buffer_8 err=0x%x\n", glGetError());
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, (void *)0);
    printf("query_to_buffer_0 err=0x%x\n", glGetError());
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, (void *)16);
    printf("query_to_buffer_16_64 err=0x%x\n", glGetError());
    glGetQueryObjectiv(q, GL_QUERY_RESULT_AVAILABLE, (void *)28);
    printf("query_available_to_buffer_28 err=0x%x\n", glGetError());
    glGetQueryObjecti64v(q, GL_QUERY_RESULT, (void *)28);
    printf("query_to_buffer_past_end err=0x%x\n", glGetError());
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, (void *)32);
    printf("query_to_buffer_at_end err=0x%x\n", glGetError());
    report_buffer("query_buffer", qb, 32);
    GLuint other = sentinel_buffer(GL_COPY_WRITE_BUFFER, 16);
    glGetQueryBufferObjectuiv(q, other, GL_QUERY_RESULT, 4);
    glGetQueryBufferObjecti64v(q, other, GL_QUERY_RESULT, 8);
    report_buffer("query_buffer_object", other, 16);
    glBindBuffer(GL_QUERY_BUFFER, 0);
    GLuint result[3] = {7, 7, 7};
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &result[1]);
    printf("query_to_memory err=0x%x result=%u,%u,%u\n", glGetError(), result[0], result[1], result[2]);
    /* A name bound then deleted: the GL unbinds it, so the pointer is memory again. */
    glBindBuffer(GL_QUERY_BUFFER, qb);
    glDeleteBuffers(1, &qb);
    result[1] = 7;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &result[1]);
    printf("query_after_delete err=0x%x result=%u\n", glGetError(), result[1]);
    glDeleteBuffers(1, &other);
    glDeleteQueries(1, &q);

    struct pack def = PACKS[0], rowlen = PACKS[4];
    GLuint pb = sentinel_buffer(GL_PIXEL_PACK_BUFFER, 256);
    set_pack(&def);
    glReadPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
    glReadPixels(1, 1, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, (void *)40);
    set_pack(&rowlen);
    glReadnPixels(0, 0, 2, 2, GL_RGB, GL_UNSIGNED_BYTE, 4, (void *)100);
    set_pack(&def);
    glBindTexture(GL_TEXTURE_2D, texc);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, (void *)200);
    glBindTexture(GL_TEXTURE_2D, tex2d);
    report_buffer("pack_buffer", pb, 256);
    glReadPixels(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, (void *)4);
    printf("pack_buffer_too_small err=0x%x\n", glGetError());
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, (void *)16);
    glGetTextureImage(tex3d, 0, GL_RED, GL_UNSIGNED_BYTE, 0, (void *)180);
    glGetTextureSubImage(tex2d, 0, 0, 0, 0, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 1, (void *)250);
    report_buffer("pack_buffer_textures", pb, 256);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glDeleteBuffers(1, &pb);
}

int main(void) {
    make_egl_context();
    make_textures();
    for (size_t i = 0; i < sizeof PACKS / sizeof PACKS[0]; i++) pixel_reads(&PACKS[i]);
    compressed_reads();
    buffer_reads();
    array_queries();
    offsets_into_buffers();
    printf("error_end=0x%x\n", glGetError());
    printf("done=1\n");
    return 0;
}
