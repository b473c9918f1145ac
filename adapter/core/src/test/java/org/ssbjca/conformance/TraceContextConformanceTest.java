package org.ssbjca.conformance;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.portable.PortableBroker;

/**
 * The W3C trace context a SEND records from the sending thread's current span, received with the message
 * (docs/guide/tracing.md): every way a SEND writes its message (with BEGIN DIALOG in one transaction, a first SEND of
 * a begun dialog, a later one, a reply), and none when the sender had no current span. The portable schema only:
 * SQL Server carries no trace context yet.
 */
class TraceContextConformanceTest {

    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String SPAN = "00f067aa0ba902b7";
    static final String PARENT = "00-" + TRACE + "-" + SPAN + "-01";

    @BackendTest
    void aSendWithACurrentSpanCarriesItsContextAndOneWithoutCarriesNone(Db db) {
        portableOnly(db);
        Db.Objects o = db.objects();
        Conversation first = inSpan(TraceState.getDefault(), () -> db.tx(s -> {
            Conversation c = s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults());
            s.send(c.handle(), o.request, bytes("with its dialog"));
            return c;
        }));
        Conversation begun = begin(db, o);
        inSpan(TraceState.getDefault(), () -> db.run(s -> s.send(begun.handle(), o.request, bytes("first send"))));
        inSpan(TraceState.getDefault(), () -> db.run(s -> s.send(begun.handle(), o.request, bytes("later send"))));
        db.run(s -> s.send(begun.handle(), o.request, bytes("no span")));

        List<BrokerMessage> got = receiveAll(db, o.targetQueue, 4);
        Map<String, Optional<String>> byBody = new TreeMap<>();
        got.forEach(m -> byBody.put(new String(m.body(), UTF_8), m.traceContext()));
        assertEquals(Map.of("with its dialog", Optional.of(PARENT), "first send", Optional.of(PARENT),
                "later send", Optional.of(PARENT), "no span", Optional.empty()), byBody);

        BrokerMessage toAnswer = got.stream().filter(m -> m.conversationId().equals(first.conversationId()))
                .findFirst().orElseThrow();
        inSpan(TraceState.builder().put("vendor", "x1").build(),
                () -> db.run(s -> s.send(toAnswer.conversationHandle(), o.reply, bytes("reply"))));
        List<BrokerMessage> replies = receiveAll(db, o.initiatorQueue, 1);
        assertEquals(Optional.of(PARENT + " vendor=x1"), replies.get(0).traceContext(), "a reply, with tracestate");
        assertEquals(first.conversationId(), replies.get(0).conversationId());
    }

    private static void portableOnly(Db db) {
        Assumptions.assumeTrue(db.broker() instanceof PortableBroker, "SQL Server carries no trace context yet");
    }

    private static <T> T inSpan(TraceState state, Supplier<T> work) {
        SpanContext context = SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), state);
        try (Scope ignored = Span.wrap(context).makeCurrent()) {
            return work.get();
        }
    }

    private static void inSpan(TraceState state, Runnable work) {
        inSpan(state, () -> {
            work.run();
            return null;
        });
    }

    private static List<BrokerMessage> receiveAll(Db db, String queue, int count) {
        List<BrokerMessage> got = new java.util.ArrayList<>();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
            got.addAll(db.tx(s -> s.receive(ReceiveRequest.from(queue).top(10))));
            return got.size() >= count;
        });
        return got;
    }
}
