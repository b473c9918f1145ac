package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;

/**
 * The one class that touches OpenTelemetry, with the SDK's in-memory exporter: the text a SEND records from the
 * current span, and the consumer span a delivery starts from a message's text (its parent, kind, name, messaging
 * attributes, error status), or, without a tracer (a deployment without OpenTelemetry), the message's own context
 * made current.
 */
class OpenTelemetryTracingTest {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
    private final OpenTelemetryTracing tracing = new OpenTelemetryTracing(provider.get("test"));

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void theAdapterUsesOpenTelemetryWhenItsApiIsThere() {
        assertTrue(Tracing.get().enabled(), "the API is on the test class path");
        assertEquals(OpenTelemetryTracing.class, Tracing.get().getClass());
    }

    @Test
    void aSendRecordsTheCurrentSpansTraceparentAndTracestate() {
        assertNull(tracing.currentContext(), "no current span");
        Span span = provider.get("sender").spanBuilder("send").startSpan();
        try (Scope ignored = span.makeCurrent()) {
            SpanContext c = span.getSpanContext();
            assertEquals("00-" + c.getTraceId() + "-" + c.getSpanId() + "-01", tracing.currentContext());
        } finally {
            span.end();
        }
        SpanContext withState = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                TraceFlags.getDefault(), TraceState.builder().put("rojo", "00f067aa0ba902b7").put("congo", "t61")
                        .build());
        try (Scope ignored = Span.wrap(withState).makeCurrent()) {
            assertEquals("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00 congo=t61,rojo=00f067aa0ba902b7",
                    tracing.currentContext(), "not sampled, with its tracestate");
        }
        SpanContext tooLong = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                TraceFlags.getSampled(), TraceState.builder().put("big", "x".repeat(250)).put("bigger",
                        "y".repeat(250)).put("biggest", "z".repeat(250)).put("huge", "w".repeat(250)).build());
        try (Scope ignored = Span.wrap(tooLong).makeCurrent()) {
            assertEquals("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracing.currentContext(),
                    "a tracestate that does not fit in " + Tracing.MAX_TEXT + " characters is dropped");
        }
    }

    @Test
    void aDeliveryRunsInAConsumerSpanWhoseParentIsTheSendersSpan() {
        Span sender = provider.get("sender").spanBuilder("send").startSpan();
        String text;
        try (Scope ignored = sender.makeCurrent()) {
            text = tracing.currentContext();
        } finally {
            sender.end();
        }
        BrokerMessage m = message(text);
        AtomicReference<SpanContext> seen = new AtomicReference<>();
        tracing.deliver("OrderQueue", m, () -> seen.set(Span.current().getSpanContext()));

        SpanData consumer = only(SpanKind.CONSUMER);
        assertEquals(sender.getSpanContext().getTraceId(), consumer.getTraceId(), "one trace");
        assertEquals(sender.getSpanContext().getSpanId(), consumer.getParentSpanId(), "the sender's span its parent");
        assertTrue(consumer.getParentSpanContext().isRemote(), "a parent from another process");
        assertEquals(consumer.getSpanContext(), seen.get(), "current during the bean's call");
        assertEquals("process OrderQueue", consumer.getName());
        assertEquals(StatusCode.UNSET, consumer.getStatus().getStatusCode());
        assertEquals("service_broker", attribute(consumer, "messaging.system"));
        assertEquals("OrderQueue", attribute(consumer, "messaging.destination.name"));
        assertEquals("process", attribute(consumer, "messaging.operation.type"));
        assertEquals("process", attribute(consumer, "messaging.operation.name"));
        assertEquals(m.conversationId() + "/7", attribute(consumer, "messaging.message.id"));
        assertEquals(m.conversationId().toString(), attribute(consumer, "messaging.message.conversation_id"));
        assertFalse(Span.current().getSpanContext().isValid(), "nothing current after the call");
    }

    @Test
    void aFailedDeliveryEndsItsSpanWithAnError() {
        IllegalStateException failure = new IllegalStateException("no stock");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> tracing.deliver("OrderQueue",
                message("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"), () -> {
                    throw failure;
                }));
        assertSame(failure, thrown, "thrown on as it was");
        SpanData consumer = only(SpanKind.CONSUMER);
        assertEquals(StatusCode.ERROR, consumer.getStatus().getStatusCode());
        assertEquals("exception", consumer.getEvents().get(0).getName(), "the exception recorded");
        assertTrue(consumer.hasEnded());
    }

    @Test
    void aMessageWithoutAValidContextIsDeliveredWithoutASpan() {
        for (String text : new String[] {null, "", "not a traceparent",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01"}) {
            AtomicReference<SpanContext> seen = new AtomicReference<>();
            tracing.deliver("OrderQueue", message(text), () -> seen.set(Span.current().getSpanContext()));
            assertFalse(seen.get().isValid(), "no context for " + text);
        }
        assertEquals(List.of(), exported.getFinishedSpanItems());
    }

    @Test
    void withoutATracerTheMessagesOwnContextIsCurrent() {
        OpenTelemetryTracing withoutTracer = new OpenTelemetryTracing();
        AtomicReference<SpanContext> seen = new AtomicReference<>();
        AtomicReference<String> forwarded = new AtomicReference<>();
        withoutTracer.deliver("OrderQueue", message("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 k=v"),
                () -> {
                    seen.set(Span.current().getSpanContext());
                    forwarded.set(withoutTracer.currentContext());
                });
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", seen.get().getTraceId());
        assertEquals("00f067aa0ba902b7", seen.get().getSpanId(), "the sender's span itself");
        assertEquals("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 k=v", forwarded.get(),
                "what a reply sent in the call carries");
    }

    private SpanData only(SpanKind kind) {
        List<SpanData> spans = exported.getFinishedSpanItems().stream().filter(s -> s.getKind() == kind).toList();
        assertEquals(1, spans.size(), "one " + kind + " span: " + spans);
        return spans.get(0);
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    private static BrokerMessage message(String traceContext) {
        return BrokerMessage.builder().conversationHandle(UUID.randomUUID()).conversationId(UUID.randomUUID())
                .messageSequenceNumber(7).messageTypeName("Order").traceContext(traceContext).build();
    }
}
