package org.ssbjca.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * Where the tracing phase's server exports its spans (OTLP over HTTP, protobuf): it answers every request with
 * success and keeps counts of the traces' requests only (metrics and logs are answered, not counted): the requests,
 * their bytes as sent, and the spans named {@code process <queue>} (the adapter's consumer spans, found by their
 * name's bytes in each request's protobuf).
 */
final class OtlpSink implements AutoCloseable {

    private final HttpServer server;
    private final byte[] spanName;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong spans = new AtomicLong();

    private OtlpSink(HttpServer server, String queue) {
        this.server = server;
        this.spanName = ("process " + queue).getBytes(StandardCharsets.UTF_8);
    }

    /** Starts one on a free port of 127.0.0.1, counting the consumer spans of {@code queue}. */
    static OtlpSink start(String queue) throws IOException {
        OtlpSink sink = new OtlpSink(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0), queue);
        sink.server.createContext("/", sink::handle);
        sink.server.start();
        return sink;
    }

    /** The base URL an OTLP/HTTP exporter posts to (it adds {@code /v1/traces}). */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** @return {requests, bytes as sent, consumer spans} received so far */
    long[] counts() {
        return new long[] {requests.get(), bytes.get(), spans.get()};
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            if (!exchange.getRequestURI().getPath().endsWith("/v1/traces")) { // the server's metrics and logs
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            requests.incrementAndGet();
            bytes.addAndGet(body.length);
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
                    body = in.readAllBytes();
                }
            }
            spans.addAndGet(occurrences(body, spanName));
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
        }
    }

    /** @return how many times {@code part} occurs in {@code whole}, not overlapping */
    static int occurrences(byte[] whole, byte[] part) {
        int found = 0;
        outer:
        for (int i = 0; i <= whole.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (whole[i + j] != part[j]) {
                    continue outer;
                }
            }
            found++;
            i += part.length - 1;
        }
        return found;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
