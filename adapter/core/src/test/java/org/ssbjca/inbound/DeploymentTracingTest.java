package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.fakes.FakeCdi;
import org.ssbjca.fakes.LogRecords;

/**
 * A bean whose deployment has OpenTelemetry as a CDI bean (what WildFly's subsystem gives a CDI deployment) is called
 * in a consumer span of that OpenTelemetry, child of the sender's span; one whose deployment has none in the sender's
 * span itself, with no span started. The deployment's container is {@link FakeCdi}, which answers only for the bean
 * class's loader as the thread's context class loader. On H2.
 */
class DeploymentTracingTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SENDER_SPAN = "00f067aa0ba902b7";
    /** The logger of the lookup of a deployment's OpenTelemetry (a class of another package). */
    private static final String LOGGER = "org.ssbjca.support.CdiOpenTelemetry";

    @Test
    void aDeploymentWithOpenTelemetryGetsAConsumerSpanChildOfTheSendersSpan() throws Exception {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        try (SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
                InboundHarness h = InboundBackends.harness("H2");
                LogRecords log = LogRecords.named(LOGGER)) {
            AtomicReference<SpanContext> seen = new AtomicReference<>();
            BrokerMessageListener bean = m -> seen.set(Span.current().getSpanContext());
            ClassLoader deployment = bean.getClass().getClassLoader();
            FakeCdi.install(deployment, OpenTelemetrySdk.builder().setTracerProvider(provider).build());
            try {
                activateWithAnotherContextLoader(h, bean);
            } finally {
                FakeCdi.uninstall(deployment);
            }
            // found once, at the activation's start (docs/guide/tracing.md)
            List<String> found = log.messages(Level.INFO, "SSBJCA0320");
            assertEquals(1, found.size(), found.toString());
            assertTrue(found.get(0).contains("delivers in consumer spans of its deployment's OpenTelemetry ("
                    + OpenTelemetrySdk.class.getName() + ")"), found.get(0));

            Conversation sent = inSendersSpan(() -> h.send("order"));
            // the span ends once the bean's call has returned, after the bean saw it
            Awaitility.await("the consumer span ended").until(() -> !exported.getFinishedSpanItems().isEmpty());

            List<SpanData> spans = exported.getFinishedSpanItems();
            assertEquals(1, spans.size(), "one span: " + spans);
            SpanData consumer = spans.get(0);
            assertEquals(SpanKind.CONSUMER, consumer.getKind());
            assertEquals("process " + InboundHarness.TARGET_QUEUE, consumer.getName());
            assertEquals(TRACE, consumer.getTraceId(), "the sender's trace");
            assertEquals(SENDER_SPAN, consumer.getParentSpanId(), "child of the sender's span");
            assertEquals(consumer.getSpanId(), seen.get().getSpanId(), "the bean's call runs in it");
            assertEquals("service_broker", attribute(consumer, "messaging.system"));
            assertEquals(InboundHarness.TARGET_QUEUE, attribute(consumer, "messaging.destination.name"));
            assertEquals("process", attribute(consumer, "messaging.operation.type"));
            String conversation = attribute(consumer, "messaging.message.conversation_id");
            assertEquals(sent.conversationId().toString(), conversation);
            assertEquals(conversation + "/0", attribute(consumer, "messaging.message.id"));
        }
    }

    @Test
    void aDeploymentWithoutOpenTelemetryStartsNoSpan() throws Exception {
        try (InboundHarness h = InboundBackends.harness("H2"); LogRecords log = LogRecords.named(LOGGER)) {
            AtomicReference<SpanContext> seen = new AtomicReference<>();
            BrokerMessageListener bean = m -> seen.set(Span.current().getSpanContext());
            activateWithAnotherContextLoader(h, bean);
            // at DEBUG, with the reason (docs/guide/tracing.md)
            List<String> none = log.messages(Level.FINE, "SSBJCA0321");
            assertEquals(1, none.size(), none.toString());
            assertTrue(none.get(0).contains("starts no consumer span: no CDI container answers for it")
                    && none.get(0).endsWith("a message's trace context is made current around the bean's call"),
                    none.get(0));
            assertEquals(List.of(), log.messages(Level.INFO, "SSBJCA0320"));

            inSendersSpan(() -> h.send("order"));
            Awaitility.await("the delivery").until(() -> seen.get() != null);

            assertEquals(TRACE, seen.get().getTraceId(), "the sender's trace");
            assertEquals(SENDER_SPAN, seen.get().getSpanId(), "the sender's span itself: no span in between");
        }
    }

    /** Activates the bean while the thread's context class loader is not the bean's, then checks it is restored. */
    private static void activateWithAnotherContextLoader(InboundHarness h, BrokerMessageListener bean)
            throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader other = new URLClassLoader(new URL[0], previous)) {
            thread.setContextClassLoader(other);
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            assertSame(other, thread.getContextClassLoader(), "the context class loader restored");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static <T> T inSendersSpan(java.util.function.Supplier<T> send) {
        SpanContext sender = SpanContext.create(TRACE, SENDER_SPAN, TraceFlags.getSampled(), TraceState.getDefault());
        try (Scope ignored = Span.wrap(sender).makeCurrent()) {
            return send.get();
        }
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }
}
