package org.ssbjca.it.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * An OpenTelemetry collector's OTLP/HTTP traces endpoint ({@code http/protobuf}) on 127.0.0.1, for a server whose
 * traces exporter is pointed at {@link #endpoint()}: it keeps every span it is sent, decoded from the protobuf of
 * {@code ExportTraceServiceRequest} (the fields the tests read: ids, name, kind, string and integer attributes).
 */
public final class OtlpReceiver implements AutoCloseable {

    /** {@code SPAN_KIND_CONSUMER} of OTLP. */
    public static final int CONSUMER = 5;

    /** One span as exported; ids in lower-case hex, parent empty for a root span. */
    public record ExportedSpan(String traceId, String spanId, String parentSpanId, String name, int kind,
            Map<String, String> attributes) {
    }

    private final HttpServer server;
    private final List<ExportedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> received = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    /** Starts one on a free port. */
    public static OtlpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            OtlpReceiver receiver = new OtlpReceiver(server);
            server.createContext("/", receiver::handle);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL an exporter posts to (it adds {@code /v1/traces}); every path is taken as traces. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every span received so far. */
    public List<ExportedSpan> spans() {
        return List.copyOf(spans);
    }

    /** What each request was (method, path, encoding, size) and how its decoding ended: for a failure's message. */
    public List<String> requests() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                    ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String request = exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Content-Encoding") + " " + body.length + " bytes: ";
            try {
                Wire export = new Wire(body, 0, body.length);
                while (export.more()) {
                    if (export.field() == 1) {
                        resourceSpans(export.message());
                    } else {
                        export.skip();
                    }
                }
                received.add(request + "decoded");
            } catch (RuntimeException e) {
                received.add(request + e);
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
        }
    }

    private void resourceSpans(Wire resource) {
        while (resource.more()) {
            if (resource.field() == 2) {
                Wire scope = resource.message();
                while (scope.more()) {
                    if (scope.field() == 2) {
                        spans.add(span(scope.message()));
                    } else {
                        scope.skip();
                    }
                }
            } else {
                resource.skip();
            }
        }
    }

    private static ExportedSpan span(Wire span) {
        String traceId = "";
        String spanId = "";
        String parent = "";
        String name = "";
        int kind = 0;
        Map<String, String> attributes = new TreeMap<>();
        while (span.more()) {
            switch (span.field()) {
                case 1 -> traceId = HexFormat.of().formatHex(span.bytes());
                case 2 -> spanId = HexFormat.of().formatHex(span.bytes());
                case 4 -> parent = HexFormat.of().formatHex(span.bytes());
                case 5 -> name = new String(span.bytes(), StandardCharsets.UTF_8);
                case 6 -> kind = (int) span.varint();
                case 9 -> attribute(span.message(), attributes);
                default -> span.skip();
            }
        }
        return new ExportedSpan(traceId, spanId, parent, name, kind, attributes);
    }

    /** A {@code KeyValue}: its string or integer value, as text. */
    private static void attribute(Wire keyValue, Map<String, String> into) {
        String key = null;
        String value = null;
        while (keyValue.more()) {
            int field = keyValue.field();
            if (field == 1) {
                key = new String(keyValue.bytes(), StandardCharsets.UTF_8);
            } else if (field == 2) {
                Wire any = keyValue.message();
                while (any.more()) {
                    switch (any.field()) {
                        case 1 -> value = new String(any.bytes(), StandardCharsets.UTF_8);
                        case 3 -> value = Long.toString(any.varint());
                        default -> any.skip();
                    }
                }
            } else {
                keyValue.skip();
            }
        }
        if (key != null && value != null) {
            into.put(key, value);
        }
    }

    /** Protocol buffers' wire format, read field by field: {@link #field()} reads a tag, then one read of its value. */
    private static final class Wire {
        private final byte[] data;
        private int position;
        private final int end;
        private int wireType;

        Wire(byte[] data, int from, int end) {
            this.data = data;
            this.position = from;
            this.end = end;
        }

        boolean more() {
            return position < end;
        }

        int field() {
            long tag = varint();
            wireType = (int) (tag & 7);
            return (int) (tag >>> 3);
        }

        long varint() {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = data[position++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
        }

        byte[] bytes() {
            int length = (int) varint();
            byte[] value = new ByteArrayInputStream(data, position, length).readAllBytes();
            position += length;
            return value;
        }

        Wire message() {
            int length = (int) varint();
            Wire inner = new Wire(data, position, position + length);
            position += length;
            return inner;
        }

        void skip() {
            switch (wireType) {
                case 0 -> varint();
                case 1 -> position += 8;
                case 2 -> {
                    int length = (int) varint();
                    position += length;
                }
                case 5 -> position += 4;
                default -> throw new IllegalStateException("wire type " + wireType);
            }
        }
    }
}
