package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** {@link OtlpSink}: the tracing phase's receiver counts the consumer spans by their name in what it is sent. */
class OtlpSinkTest {

    /** Two spans of the queue in a gzipped request, one of another queue: two counted, the bytes as sent. */
    @Test
    void countsTheQueuesSpansInAGzippedRequest() throws Exception {
        byte[] plain = "\n\u0012process BenchQueue\u0001\u0002process BenchQueue\u0003process OtherQueue"
                .getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
            out.write(plain);
        }
        try (OtlpSink sink = OtlpSink.start("BenchQueue")) {
            HttpResponse<Void> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(sink.endpoint() + "/v1/traces")).header("Content-Type", "application/x-protobuf")
                    .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofByteArray(
                            zipped.toByteArray())).build(), HttpResponse.BodyHandlers.discarding());
            assertEquals(200, answer.statusCode());
            assertArrayEquals(new long[] {1, zipped.size(), 2}, sink.counts());
        }
    }

    /** Occurrences do not overlap and a part longer than the whole is not found. */
    @Test
    void occurrencesDoNotOverlap() {
        assertEquals(2, OtlpSink.occurrences("aaaa".getBytes(StandardCharsets.UTF_8),
                "aa".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0, OtlpSink.occurrences("a".getBytes(StandardCharsets.UTF_8),
                "aa".getBytes(StandardCharsets.UTF_8)));
    }
}
