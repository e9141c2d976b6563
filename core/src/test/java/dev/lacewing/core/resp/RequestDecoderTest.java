package dev.lacewing.core.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestDecoderTest {

    private final RequestDecoder decoder = new RequestDecoder();

    private void feed(String text) {
        decoder.append(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    private List<String> arguments() {
        List<String> args = new ArrayList<>();
        for (int i = 0; i < decoder.count(); i++) {
            args.add(new String(decoder.array(), decoder.offset(i), decoder.length(i), StandardCharsets.ISO_8859_1));
        }
        return args;
    }

    @Test
    void decodesPipelinedMultibulkRequestsInOrder() {
        feed("*2\r\n$3\r\nGET\r\n$1\r\na\r\n*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$2\r\n\0\n\r\n");
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("GET", "a"), arguments());
        decoder.consume();
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("SET", "b", "\0\n"), arguments());
        decoder.consume();
        assertEquals(RequestDecoder.Result.INCOMPLETE, decoder.decode());
    }

    @Test
    void resumesARequestSplitAtEveryByte() {
        String request = "*3\r\n$3\r\nSET\r\n$5\r\nkey\r\n\r\n$10\r\n0123456789\r\n";
        for (int i = 0; i < request.length() - 1; i++) {
            feed(request.substring(i, i + 1));
            assertEquals(RequestDecoder.Result.INCOMPLETE, decoder.decode(), "after byte " + i);
        }
        feed(request.substring(request.length() - 1));
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("SET", "key\r\n", "0123456789"), arguments());
    }

    @Test
    void decodesInlineRequestsWithQuotes() {
        feed("set \"a b\" 'c d'\r\nPING\n\r\n");
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("set", "a b", "c d"), arguments());
        decoder.consume();
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("PING"), arguments());
        decoder.consume();
        assertEquals(RequestDecoder.Result.INCOMPLETE, decoder.decode(), "a blank line is skipped");
    }

    @Test
    void decodesHexEscapesInQuotedInlineArguments() {
        feed("echo \"\\x41\\n\"\r\n");
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("echo", "A\n"), arguments());
    }

    @Test
    void rejectsUnbalancedQuotes() {
        feed("set \"a b\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: unbalanced quotes in request", decoder.error());
    }

    @Test
    void rejectsAMultibulkCountOverTheLimitFromTheHeader() {
        feed("*1048577\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: invalid multibulk length", decoder.error());
    }

    @Test
    void rejectsABulkLengthOverProtoMaxBulkLenFromTheHeader() {
        decoder.maxBulkLength(1000);
        feed("*2\r\n$3\r\nGET\r\n$1001\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: invalid bulk length", decoder.error());
    }

    @Test
    void rejectsAMissingDollar() {
        feed("*1\r\n+PING\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: expected '$', got '+'", decoder.error());
    }

    @Test
    void rejectsAnInlineRequestOverSixtyFourKilobytes() {
        feed("x".repeat(RequestDecoder.MAX_INLINE_LENGTH + 1));
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: too big inline request", decoder.error());
    }

    @Test
    void keepsArgumentsValidWhenTheBufferGrows() {
        String big = "v".repeat(100_000);
        feed("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$100000\r\n");
        assertEquals(RequestDecoder.Result.INCOMPLETE, decoder.decode());
        feed(big + "\r\n");
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("SET", "k", big), arguments());
    }

    @Test
    void beforeAuthenticationAMultibulkCountOverTenIsRefusedFromItsHeader() {
        decoder.authenticationRequired(true);
        feed("*11\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: unauthenticated multibulk length", decoder.error());
        assertEquals("unauth mbulk count", decoder.errorSummary());
    }

    @Test
    void beforeAuthenticationTenArgumentsAndSixteenKibBulksPass() {
        decoder.authenticationRequired(true);
        feed("*10\r\n" + ("$16384\r\n" + "b".repeat(16384) + "\r\n").repeat(10));
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(10, decoder.count());
    }

    @Test
    void beforeAuthenticationABulkOverSixteenKibIsRefusedFromItsHeader() {
        decoder.authenticationRequired(true);
        feed("*1\r\n$16385\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: unauthenticated bulk length", decoder.error());
        assertEquals("unauth bulk length", decoder.errorSummary());
        assertEquals("$16385\r\n".length(), decoder.queryBufferBytes(), "the error is at the bulk's header");
    }

    @Test
    void anInvalidBulkLengthIsReportedBeforeTheUnauthenticatedLimit() {
        decoder.authenticationRequired(true);
        decoder.maxBulkLength(1024 * 1024);
        feed("*1\r\n$1048577\r\n");
        assertEquals(RequestDecoder.Result.ERROR, decoder.decode());
        assertEquals("Protocol error: invalid bulk length", decoder.error());
    }

    @Test
    void theLimitsLiftOnceAuthenticationIsNoLongerRequired() {
        decoder.authenticationRequired(true);
        feed("*2\r\n$4\r\nAUTH\r\n$1\r\np\r\n*11\r\n" + "$1\r\nx\r\n".repeat(11));
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        decoder.consume();
        decoder.authenticationRequired(false);
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(11, decoder.count());
    }

    @Test
    void theQueryBufferHoldsOnlyWhatIsNotYetACompleteArgument() {
        feed("*3\r\n$5\r\nRPUSH\r\n$1\r\nk\r\n$10\r\nabc");
        assertEquals(RequestDecoder.Result.INCOMPLETE, decoder.decode());
        assertEquals(3, decoder.queryBufferBytes(), "only the pending bulk's bytes");
        assertEquals("*3\r\n$5\r\nRPUSH\r\n$1\r\nk\r\n$10\r\nabc".length(), decoder.bufferedBytes());
    }

    @Test
    void aBulkWhoseBytesAndCrlfPassTheQueryBufferLimitNeverCompletes() {
        decoder.queryBufferLimit(11);
        feed("*1\r\n$10\r\n0123456789\r\n*1\r\n$4\r\nPING\r\n");
        assertEquals(RequestDecoder.Result.INCOMPLETE, decoder.decode());
        assertEquals(12 + "*1\r\n$4\r\nPING\r\n".length(), decoder.queryBufferBytes());
    }

    @Test
    void aBulkWhoseBytesAndCrlfFillTheQueryBufferLimitCompletes() {
        decoder.queryBufferLimit(12);
        feed("*1\r\n$10\r\n0123456789\r\n");
        assertEquals(RequestDecoder.Result.COMPLETE, decoder.decode());
        assertEquals(List.of("0123456789"), arguments());
    }
}
