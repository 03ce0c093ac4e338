/* Every enumerant of gl.xml asked of every glGet* and glGet*Parameter* function: run directly and
 * through glcmd-run by tests/unchanged.rs, which compares the two outputs line by line.
 *
 * argv[1] is a file of enumerant values, one a line (decimal, a name may follow). For each getter
 * and each value the output array (64 values) is filled with a sentinel, the getter called and
 * the error read. A line is printed for every pname the GL does not refuse with GL_INVALID_ENUM:
 * `getter pname error`, then, when the call raised no error, the number of values written (up to
 * the last byte that is not the sentinel) and their bytes in hex: every value, and the sentinels
 * after them untouched. Pnames refused with GL_INVALID_ENUM are only counted, per getter. (Mesa
 * writes into the output of some refused queries, which the GL specifies as unchanged: glcmd
 * leaves it unchanged, so the bytes of a refused call are not compared.) Answers that differ from
 * run to run (GL_TIMESTAMP) or by design through glcmd (GL_NUM_EXTENSIONS, docs/extensions.md)
 * print their count only.
 *
 * With `exact` as argv[2], each query is asked twice, with two sentinels, so that the count is
 * exact even where a written value equals a sentinel: the tool that reviewed glcmd's pname
 * tables against the driver. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <string.h>

#define PROGRAM "queries"
#include "egl_pbuffer.h"

#define SLOTS 64
#define MAX_ENUMS 8192

static GLuint tex, buf, fbo, rbo, prog, vs, query, sampler, pipe, vao, xfb;

#define G(name, call) static void name(GLenum p, void *o) { call; }
G(get_boolean, glGetBooleanv(p, o))
G(get_integer, glGetIntegerv(p, o))
G(get_integer64, glGetInteger64v(p, o))
G(get_float, glGetFloatv(p, o))
G(get_double, glGetDoublev(p, o))
G(get_boolean_i, glGetBooleani_v(p, 0, o))
G(get_integer_i, glGetIntegeri_v(p, 0, o))
G(get_integer64_i, glGetInteger64i_v(p, 0, o))
G(get_float_i, glGetFloati_v(p, 0, o))
G(get_double_i, glGetDoublei_v(p, 0, o))
G(tex_parameter_iv, glGetTexParameteriv(GL_TEXTURE_2D, p, o))
G(tex_parameter_fv, glGetTexParameterfv(GL_TEXTURE_2D, p, o))
G(tex_parameter_Iiv, glGetTexParameterIiv(GL_TEXTURE_2D, p, o))
G(tex_parameter_Iuiv, glGetTexParameterIuiv(GL_TEXTURE_2D, p, o))
G(texture_parameter_iv, glGetTextureParameteriv(tex, p, o))
G(texture_parameter_fv, glGetTextureParameterfv(tex, p, o))
G(tex_level_parameter_iv, glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, p, o))
G(tex_level_parameter_fv, glGetTexLevelParameterfv(GL_TEXTURE_2D, 0, p, o))
G(texture_level_parameter_iv, glGetTextureLevelParameteriv(tex, 0, p, o))
G(buffer_parameter_iv, glGetBufferParameteriv(GL_ARRAY_BUFFER, p, o))
G(buffer_parameter_i64v, glGetBufferParameteri64v(GL_ARRAY_BUFFER, p, o))
G(named_buffer_parameter_iv, glGetNamedBufferParameteriv(buf, p, o))
G(framebuffer_parameter_iv, glGetFramebufferParameteriv(GL_DRAW_FRAMEBUFFER, p, o))
G(named_framebuffer_parameter_iv, glGetNamedFramebufferParameteriv(fbo, p, o))
G(framebuffer_attachment_iv, glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, p, o))
G(renderbuffer_parameter_iv, glGetRenderbufferParameteriv(GL_RENDERBUFFER, p, o))
G(named_renderbuffer_parameter_iv, glGetNamedRenderbufferParameteriv(rbo, p, o))
G(program_iv, glGetProgramiv(prog, p, o))
G(shader_iv, glGetShaderiv(vs, p, o))
G(program_stage_iv, glGetProgramStageiv(prog, GL_VERTEX_SHADER, p, o))
G(program_interface_iv, glGetProgramInterfaceiv(prog, GL_UNIFORM, p, o))
G(active_uniform_block_iv, glGetActiveUniformBlockiv(prog, 0, p, o))
G(query_iv, glGetQueryiv(GL_SAMPLES_PASSED, p, o))
G(query_indexed_iv, glGetQueryIndexediv(GL_PRIMITIVES_GENERATED, 0, p, o))
G(query_object_iv, glGetQueryObjectiv(query, p, o))
G(query_object_ui64v, glGetQueryObjectui64v(query, p, o))
G(sampler_parameter_iv, glGetSamplerParameteriv(sampler, p, o))
G(sampler_parameter_fv, glGetSamplerParameterfv(sampler, p, o))
G(sampler_parameter_Iiv, glGetSamplerParameterIiv(sampler, p, o))
G(sampler_parameter_Iuiv, glGetSamplerParameterIuiv(sampler, p, o))
G(program_pipeline_iv, glGetProgramPipelineiv(pipe, p, o))
G(vertex_array_iv, glGetVertexArrayiv(vao, p, o))
G(vertex_array_indexed_iv, glGetVertexArrayIndexediv(vao, 0, p, o))
G(vertex_attrib_iv, glGetVertexAttribiv(0, p, o))
G(vertex_attrib_fv, glGetVertexAttribfv(0, p, o))
G(vertex_attrib_dv, glGetVertexAttribdv(0, p, o))
G(transform_feedback_iv, glGetTransformFeedbackiv(xfb, p, o))

struct getter {
    const char *name;
    void (*call)(GLenum, void *);
    size_t size; /* bytes per value */
};

static const struct getter getters[] = {
#define E(n, s) {#n, n, s}
    E(get_boolean, 1), E(get_integer, 4), E(get_integer64, 8), E(get_float, 4), E(get_double, 8),
    E(get_boolean_i, 1), E(get_integer_i, 4), E(get_integer64_i, 8), E(get_float_i, 4), E(get_double_i, 8),
    E(tex_parameter_iv, 4), E(tex_parameter_fv, 4), E(tex_parameter_Iiv, 4), E(tex_parameter_Iuiv, 4),
    E(texture_parameter_iv, 4), E(texture_parameter_fv, 4), E(tex_level_parameter_iv, 4),
    E(tex_level_parameter_fv, 4), E(texture_level_parameter_iv, 4), E(buffer_parameter_iv, 4),
    E(buffer_parameter_i64v, 8), E(named_buffer_parameter_iv, 4), E(framebuffer_parameter_iv, 4),
    E(named_framebuffer_parameter_iv, 4), E(framebuffer_attachment_iv, 4), E(renderbuffer_parameter_iv, 4),
    E(named_renderbuffer_parameter_iv, 4), E(program_iv, 4), E(shader_iv, 4), E(program_stage_iv, 4),
    E(program_interface_iv, 4), E(active_uniform_block_iv, 4), E(query_iv, 4), E(query_indexed_iv, 4),
    E(query_object_iv, 4), E(query_object_ui64v, 8), E(sampler_parameter_iv, 4), E(sampler_parameter_fv, 4),
    E(sampler_parameter_Iiv, 4), E(sampler_parameter_Iuiv, 4), E(program_pipeline_iv, 4),
    E(vertex_array_iv, 4), E(vertex_array_indexed_iv, 4), E(vertex_attrib_iv, 4), E(vertex_attrib_fv, 4),
    E(vertex_attrib_dv, 8), E(transform_feedback_iv, 4),
#undef E
};

static GLuint shader(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

/* One object of every kind a getter asks about, each bound where a target getter looks. */
static void make_objects(void) {
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 4, 4);
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    glGenRenderbuffers(1, &rbo);
    glBindRenderbuffer(GL_RENDERBUFFER, rbo);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
    vs = shader(GL_VERTEX_SHADER, "#version 450 core\nlayout(std140) uniform B { vec4 v; };\n"
                                  "void main() { gl_Position = v; }\n");
    GLuint fs = shader(GL_FRAGMENT_SHADER, "#version 450 core\nout vec4 c;\nvoid main() { c = vec4(1); }\n");
    prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glGenQueries(1, &query);
    glBeginQuery(GL_SAMPLES_PASSED, query);
    glEndQuery(GL_SAMPLES_PASSED);
    glGenSamplers(1, &sampler);
    glBindSampler(0, sampler);
    glGenProgramPipelines(1, &pipe);
    glBindProgramPipeline(pipe);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenTransformFeedbacks(1, &xfb);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb);
    glFinish();
    while (glGetError() != GL_NO_ERROR) {}
}

/* Fills with `fill`, calls, returns the error; `out` holds what the call left. */
static GLenum pass(const struct getter *g, GLenum pname, unsigned char fill, unsigned char *out) {
    memset(out, fill, SLOTS * 8);
    g->call(pname, out);
    return glGetError();
}

/* The number of values up to the last byte that is not its pass's sentinel (`b`: NULL, or the
 * second pass). */
static size_t written(const struct getter *g, const unsigned char *a, const unsigned char *b) {
    size_t n = 0;
    for (size_t i = 0; i < SLOTS * 8; i++) {
        if (a[i] != 0xA5 || (b && b[i] != 0x3C)) n = i / g->size + 1;
    }
    return n;
}

int main(int argc, char **argv) {
    if (argc < 2) die("usage: queries ENUM-FILE");
    FILE *f = fopen(argv[1], "r");
    if (!f) die("cannot open the enum file");
    static unsigned values[MAX_ENUMS];
    size_t n_values = 0;
    char line[256];
    while (n_values < MAX_ENUMS && fgets(line, sizeof line, f)) values[n_values++] = (unsigned)strtoul(line, NULL, 10);
    fclose(f);
    make_egl_context();
    make_objects();
    int exact = argc > 2 && strcmp(argv[2], "exact") == 0;
    static unsigned char a[SLOTS * 8], b[SLOTS * 8];
    for (size_t gi = 0; gi < sizeof getters / sizeof getters[0]; gi++) {
        const struct getter *g = &getters[gi];
        size_t refused = 0;
        for (size_t vi = 0; vi < n_values; vi++) {
            GLenum pname = values[vi];
            GLenum error = pass(g, pname, 0xA5, a);
            if (error == GL_INVALID_ENUM) {
                refused++;
                continue;
            }
            printf("%s 0x%04X 0x%X", g->name, pname, error);
            if (error == GL_NO_ERROR) {
                if (exact && pass(g, pname, 0x3C, b) != GL_NO_ERROR) die("the second pass raised an error");
                size_t n = written(g, a, exact ? b : NULL);
                printf(" %zu", n);
                if (pname != GL_TIMESTAMP && pname != GL_NUM_EXTENSIONS) {
                    printf(" ");
                    for (size_t i = 0; i < n * g->size; i++) printf("%02x", a[i]);
                }
            }
            printf("\n");
        }
        printf("%s refused=%zu\n", g->name, refused);
    }
    printf("error_end=0x%X\n", glGetError());
    printf("done=1\n");
    return 0;
}
