/* The benchmark programs' shader program: a vertex and a fragment shader compiled, attached and
 * linked, their status asked as a plain GL program asks it (frames.c, tutorial.c). Include after
 * the GL header and after a `die(const char *)` of the program's. Static: each program compiles
 * its own copy. */
#ifndef GLCMD_BENCH_LINK_H
#define GLCMD_BENCH_LINK_H

static GLuint link_program(const char *vs, const char *fs) {
    GLuint p = glCreateProgram();
    const char *src[2] = {vs, fs};
    GLenum kinds[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint s = glCreateShader(kinds[i]);
        glShaderSource(s, 1, &src[i], NULL);
        glCompileShader(s);
        GLint ok = 0;
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) die("compile");
        glAttachShader(p, s);
        glDeleteShader(s);
    }
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) die("link");
    return p;
}

#endif
