package dev.lacewing.script.lua.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * Runs Lua snippets against the libraries and compares what they return, or the error they
 * raise, with what redis-server 7.0.15 answered for the same snippet. Each line of
 * redis-7.0.15-cases.tsv holds a library, a snippet (a function body ending in a return) and
 * Redis's answer: the snippet ran as {@code EVAL} with render.lua, which prints pcall's results
 * with numbers as %.17g, strings with their non-printable bytes as \ddd and tables with their
 * entries sorted. In Redis each case first put cjson's settings back to their defaults, since
 * they outlive a script there. record-redis-answers.py, beside the cases, records the answers
 * again from a running redis-server.
 */
class RedisLuaLibrariesTest {

    private static final String RENDER = resource("render.lua");

    static Stream<Arguments> redisCases() {
        List<Arguments> cases = new ArrayList<>();
        for (String line : resource("redis-7.0.15-cases.tsv").split("\n")) {
            String[] fields = line.split("\t", 3);
            cases.add(Arguments.of(fields[0], fields[1], fields[2]));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("redisCases")
    void answersAsRedis(String library, String body, String redisAnswer) {
        assertEquals(redisAnswer, run(body));
    }

    @Test
    void installSetsTheFourLibraries() {
        assertEquals("table table table table userdata", run(
                "return type(cjson) .. ' ' .. type(cmsgpack) .. ' ' .. type(struct) .. ' ' .. type(bit) .. ' ' "
                        + ".. type(cjson.null)").replace("true | ", "").replace("\"", ""));
    }

    @Test
    void eachCjsonTableKeepsItsOwnSettings() {
        assertEquals("true | \"1.2\" | \"1.234\" | \"1.2\"", run(
                "local c = cjson.new() c.encode_number_precision(2) return c.encode(1.234), cjson.encode(1.234), "
                        + "c.encode(1.234)"));
    }

    @Test
    void decodedNullIsCjsonNullOfEveryTable() {
        assertEquals("true | true | true | true", run(
                "local c = cjson.new() return c.decode('null') == cjson.null, c.null == cjson.null, "
                        + "cmsgpack.pack(cjson.null) == cmsgpack.pack(nil)"));
    }

    @Test
    void libraryFunctionsPrintAsFunctions() {
        assertEquals("true | true | true", run(
                "return tostring(cjson.encode):find('^function: ') == 1, "
                        + "tostring(struct.pack):find('^function: ') == 1"));
    }

    @Test
    void printsNumbersAsCPrintfG() {
        assertEquals("0.1", CNumberFormat.formatG(0.1, 14));
        assertEquals("1e+15", CNumberFormat.formatG(1e15, 14));
        assertEquals("100000000000000", CNumberFormat.formatG(1e14, 15));
        assertEquals("1e-05", CNumberFormat.formatG(1e-5, 14));
        assertEquals("0.0001", CNumberFormat.formatG(1e-4, 14));
        assertEquals("2.5", CNumberFormat.formatG(2.5, 14));
        assertEquals("2", CNumberFormat.formatG(2.5, 1));
        assertEquals("4", CNumberFormat.formatG(3.5, 1));
        assertEquals("-1.7976931348623e+308", CNumberFormat.formatG(-Double.MAX_VALUE, 14));
        assertEquals("0.10000000000000001", CNumberFormat.formatG(0.1, 17));
        assertEquals("-0", CNumberFormat.formatG(-0.0, 14));
        assertEquals("inf", CNumberFormat.formatG(Double.POSITIVE_INFINITY, 14));
    }

    /** Runs the snippet in fresh globals, as Redis would under the name user_script. */
    static String run(String body) {
        LuaTable globals = JsePlatform.debugGlobals();
        RedisLuaLibraries.install(globals);
        globals.set("fmtnum", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue number) {
                return LuaValue.valueOf(CNumberFormat.formatG(number.todouble(), 17));
            }
        });
        // The library call must not be a tail call: Lua 5.1 names a tail-called function '?'.
        int last = body.lastIndexOf("return ");
        String wrapped = body.substring(0, last) + "local __r = P(" + body.substring(last + 7)
                + ") return unpack(__r, 1, __r.n)";
        String script = "local fmtnum = fmtnum " + RENDER.strip() + " return R(pcall(function() " + wrapped + " end))";
        LuaValue chunk = globals.get("loadstring").call(LuaValue.valueOf(script), LuaValue.valueOf("@user_script"));
        return chunk.call().tojstring();
    }

    private static String resource(String name) {
        try (InputStream in = RedisLuaLibrariesTest.class.getResourceAsStream(name);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1))) {
            StringBuilder text = new StringBuilder();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                text.append(line).append('\n');
            }
            return text.toString().stripTrailing();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
