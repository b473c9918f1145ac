package org.ssbjca.inbound;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;

/**
 * A delivery continues the trace its message carries (docs/guide/tracing.md): the bean's call runs with the sender's
 * context current, each message of a per-message bean with its own, none for a message sent with no span; a batch
 * bean's call with its batch's first traced message. Through activations on H2 and PostgreSQL, with the adapter's
 * tracing as chosen at start (for a deployment without OpenTelemetry: no span, the message's context made current).
 */
class TracedDeliveryTest {

    private static final String NONE = "none";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void eachCallRunsInTheTraceItsMessageCarries(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, String> seen = new ConcurrentHashMap<>();
            BrokerMessageListener bean = m -> seen.put(m.bodyAsText(), traceOfCurrentSpan());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);

            inTrace("11111111111111111111111111111111", () -> h.send("a1", "a2"));
            inTrace("22222222222222222222222222222222", () -> h.send("b1"));
            h.send("c1");
            Awaitility.await("four deliveries").atMost(Duration.ofSeconds(60)).until(() -> seen.size() == 4);

            assertEquals(Map.of("a1", "11111111111111111111111111111111", "a2", "11111111111111111111111111111111",
                    "b1", "22222222222222222222222222222222", "c1", NONE), seen);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aBatchCallRunsInItsFirstTracedMessagesTrace(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            Map<String, String> seen = new ConcurrentHashMap<>();
            ConversationGroupListener bean = batch -> seen.put(String.join(",", batch.stream()
                    .map(BrokerMessage::bodyAsText).toList()), traceOfCurrentSpan());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setReceiveBatchSize("10");
            h.activate(ConversationGroupListener.class, bean, true, spec);

            h.tx(s -> {
                var c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET, InboundHarness.CONTRACT,
                        org.ssbjca.api.DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "untraced".getBytes(UTF_8));
                inTrace("33333333333333333333333333333333", () -> s.send(c.handle(), InboundHarness.REQUEST,
                        "traced".getBytes(UTF_8)));
                return c;
            });
            Awaitility.await("one batch").atMost(Duration.ofSeconds(60)).until(() -> !seen.isEmpty());

            assertEquals(Map.of("untraced,traced", "33333333333333333333333333333333"), seen);
        }
    }

    private static String traceOfCurrentSpan() {
        SpanContext c = Span.current().getSpanContext();
        return c.isValid() ? c.getTraceId() : NONE;
    }

    private static void inTrace(String traceId, Runnable work) {
        SpanContext c = SpanContext.create(traceId, "00f067aa0ba902b7", TraceFlags.getSampled(),
                TraceState.getDefault());
        try (Scope ignored = Span.wrap(c).makeCurrent()) {
            work.run();
        }
    }
}
