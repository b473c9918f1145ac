package org.ssbjca.it.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.support.BrokerDb;

/**
 * Starts a trace of its own (a root span from the server's {@code Tracer}) and, in it, begins a dialog from
 * {@value TracingIT#REPLY_QUEUE}'s service to {@value TracingIT#REQUEST_QUEUE}'s and sends a request; records
 * {@code sent:<trace id>} and {@code sender:<span id>}.
 */
@Stateless
public class TracingSender {

    @Inject
    Tracer tracer;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /** Sends the request in a new trace. */
    public void sendInNewTrace() {
        Span span = tracer.spanBuilder("place order").setNoParent().startSpan();
        try (Scope ignored = span.makeCurrent(); ServiceBrokerConnection c = factory.getConnection()) {
            c.beginDialogAndSend(TracingIT.REPLY_QUEUE + "Service", TracingIT.REQUEST_QUEUE + "Service",
                    BrokerDb.CONTRACT, DialogOptions.defaults(), BrokerDb.REQUEST,
                    "order".getBytes(StandardCharsets.UTF_8));
            Recorder.record(factory, "sent:" + span.getSpanContext().getTraceId());
            Recorder.record(factory, "sender:" + span.getSpanContext().getSpanId());
        } finally {
            span.end();
        }
    }
}
