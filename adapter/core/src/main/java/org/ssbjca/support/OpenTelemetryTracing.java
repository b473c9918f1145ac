package org.ssbjca.support;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;
import org.ssbjca.api.BrokerMessage;

/**
 * {@link Tracing} with OpenTelemetry's API: with {@link CdiOpenTelemetry}, the only classes of the adapter that touch
 * it, loaded only when the API is there. The text is what {@link W3CTraceContextPropagator} writes as {@code
 * traceparent} and {@code tracestate}.
 *
 * <p>A delivery's span is a {@link SpanKind#CONSUMER} span named {@code process <queue>}, its parent the message's
 * context, with the messaging attributes ({@code messaging.system} {@value Tracing#MESSAGING_SYSTEM}, the queue, the
 * operation {@code process}, the message id {@code <conversation id>/<sequence number>}, the conversation id), from
 * the tracer of the bean's deployment ({@link #forDeployment}). The adapter never calls {@code GlobalOpenTelemetry}:
 * WildFly does not set it, and its {@code get()} would fix it to a no-op for every deployment. Without a tracer the
 * message's context itself is made current, so that the bean's own spans and its SENDs join the sender's trace.
 */
final class OpenTelemetryTracing extends Tracing {

    static final String INSTRUMENTATION = "org.ssbjca";
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";
    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    /** The deployment's tracer, or null: no span of the adapter's own. */
    private final Tracer tracer;

    /** Without a tracer: the message's context is made current, no span of the adapter's own. */
    OpenTelemetryTracing() {
        this(null);
    }

    /** With a tracer whose spans the delivery starts, or null for none. */
    OpenTelemetryTracing(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public Tracing forDeployment(ClassLoader deployment, String activation) {
        OpenTelemetry found = CdiOpenTelemetry.find(deployment, activation);
        return found == null ? this : new OpenTelemetryTracing(found.getTracer(INSTRUMENTATION));
    }

    @Override
    public String currentContext() {
        Context current = Context.current();
        if (!Span.fromContext(current).getSpanContext().isValid()) {
            return null;
        }
        Map<String, String> headers = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(current, headers, Map::put);
        String parent = headers.get(TRACEPARENT);
        if (parent == null) {
            return null;
        }
        String state = headers.get(TRACESTATE);
        if (state == null || state.isEmpty() || parent.length() + 1 + state.length() > MAX_TEXT) {
            return parent;
        }
        return parent + ' ' + state;
    }

    @Override
    public void deliver(String queue, BrokerMessage message, Runnable call) {
        String text = message.traceContext().orElse(null);
        if (text == null) {
            call.run();
            return;
        }
        Context parent = extract(text);
        if (!Span.fromContext(parent).getSpanContext().isValid()) {
            call.run();
            return;
        }
        if (tracer == null) {
            try (Scope ignored = parent.makeCurrent()) {
                call.run();
            }
            return;
        }
        String conversation = String.valueOf(message.conversationId() != null ? message.conversationId()
                : message.conversationHandle());
        Span span = tracer.spanBuilder("process " + queue).setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", MESSAGING_SYSTEM)
                .setAttribute("messaging.destination.name", queue)
                .setAttribute("messaging.operation.type", "process")
                .setAttribute("messaging.operation.name", "process")
                .setAttribute("messaging.message.id", conversation + "/" + message.messageSequenceNumber())
                .setAttribute("messaging.message.conversation_id", conversation)
                .startSpan();
        try (Scope ignored = span.makeCurrent()) {
            call.run();
        } catch (RuntimeException | Error e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getName());
            span.recordException(e);
            throw e;
        } finally {
            span.end();
        }
    }

    @Override
    public boolean enabled() {
        return true;
    }

    /** The context a message's text names: the root context when the text is malformed. */
    static Context extract(String text) {
        String trimmed = text.trim();
        int space = trimmed.indexOf(' ');
        Map<String, String> headers = space < 0 ? Map.of(TRACEPARENT, trimmed)
                : Map.of(TRACEPARENT, trimmed.substring(0, space), TRACESTATE, trimmed.substring(space + 1).trim());
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, GETTER);
    }
}
