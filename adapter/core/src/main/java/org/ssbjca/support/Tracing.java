package org.ssbjca.support;

import org.ssbjca.api.BrokerMessage;

/**
 * The W3C trace context carried with a message: recorded at a SEND from the sending thread's current span, continued
 * around the bean's call that delivers the message, in a consumer span when the bean's deployment has OpenTelemetry
 * ({@link #forDeployment}). Chosen once, when this class is first used: {@link
 * OpenTelemetryTracing} when the adapter's class loader sees OpenTelemetry's API (WildFly's {@code
 * io.opentelemetry.api} and {@code io.opentelemetry.context} modules), else one that records and continues nothing and
 * never touches an OpenTelemetry class. Thread safe; nothing here takes part in a transaction.
 */
public abstract class Tracing {

    private static final AdapterLog LOG = AdapterLog.of(Tracing.class);
    /** The longest text a message carries (the portable schema's {@code trace_context} column). */
    public static final int MAX_TEXT = 1024;
    /** The value of {@code messaging.system} on the spans of a delivery. */
    public static final String MESSAGING_SYSTEM = "service_broker";

    private static final Tracing CHOSEN = choose();

    /** Returns the tracing of this adapter's class loader. */
    public static Tracing get() {
        return CHOSEN;
    }

    /**
     * Returns the text to record with a message sent now, on this thread: the current span's {@code traceparent},
     * followed by a space and its {@code tracestate} when it has one (dropped when both exceed {@link #MAX_TEXT}),
     * or null when the thread has no valid current span.
     */
    public abstract String currentContext();

    /**
     * Calls the bean for a message, continuing the message's trace context around the call when it carries one: the
     * call runs with that context current and, when this tracing has the deployment's tracer ({@link
     * #forDeployment}), in a consumer span that ends with an error status when the call throws. A message without a
     * context is delivered as it is. Runs on the calling thread; what the call throws is thrown on.
     *
     * @param queue the queue the message was received from
     * @param message the message delivered (for a batch, the first one that carries a context)
     * @param call the bean's call
     */
    public abstract void deliver(String queue, BrokerMessage message, Runnable call);

    /**
     * Returns the tracing of one activation's deliveries: in consumer spans of the OpenTelemetry the bean's
     * deployment has as a CDI bean (WildFly's {@code opentelemetry} subsystem gives one to every CDI deployment),
     * found once, here, through the deployment's class loader; without one, {@link #deliver} starts no span and only
     * makes a message's context current. Never throws: a failed lookup is logged (SSBJCA0322) and gives the tracing
     * without spans.
     *
     * @param deployment the class loader of the bean's class, or null when unknown
     * @param activation the activation's name, for the log
     */
    public abstract Tracing forDeployment(ClassLoader deployment, String activation);

    /** Whether OpenTelemetry's API was found: whether messages carry trace contexts at all. */
    public abstract boolean enabled();

    private static Tracing choose() {
        ClassLoader loader = Tracing.class.getClassLoader();
        try {
            Class.forName("io.opentelemetry.context.Context", false, loader);
            Class.forName("io.opentelemetry.api.trace.Span", false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.tracingAbsent();
            return new Off();
        }
        try {
            Tracing on = (Tracing) Class.forName(Tracing.class.getPackageName() + ".OpenTelemetryTracing", true,
                    loader).getDeclaredConstructor().newInstance();
            LOG.tracingPresent();
            return on;
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.tracingUnavailable(e);
            return new Off();
        }
    }

    /** Records and continues nothing. */
    static final class Off extends Tracing {
        @Override
        public String currentContext() {
            return null;
        }

        @Override
        public void deliver(String queue, BrokerMessage message, Runnable call) {
            call.run();
        }

        @Override
        public Tracing forDeployment(ClassLoader deployment, String activation) {
            return this;
        }

        @Override
        public boolean enabled() {
            return false;
        }
    }
}
