package org.ssbjca.it.tracing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.docs.Docs;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.OtlpReceiver;
import org.ssbjca.it.support.OtlpReceiver.ExportedSpan;
import org.ssbjca.it.support.Postgres;
import org.ssbjca.it.support.ServerAdmin;
import org.ssbjca.it.support.ServerAdmin.Cli;

/**
 * Issue 48 point 2: one trace from an EJB's SEND through the MDB and its reply, with the adapter's consumer spans
 * exported by the server. The manual server (standalone-full, which has no opentelemetry subsystem) gets the subsystem
 * by the CLI of docs/guide/tracing.md as written; its traces exporter is pointed at an {@link OtlpReceiver} by two
 * system properties that the subsystem does not set: {@code otel.exporter.otlp.traces.protocol} {@code
 * http/protobuf}, and the receiver as {@code otel.exporter.otlp.span.endpoint} (the name SmallRye's exporter reads for
 * the traces' own endpoint). Then the RAR on PostgreSQL and the beans: {@link
 * TracingSender} starts a root span and sends a request; {@link TracedRequestService} records the trace id current in
 * its call and replies in a span of its own; {@link TracedReplyService} records the trace id current in its call and
 * the text the reply carried.
 */
@ExtendWith(ArquillianExtension.class)
class TracingIT {

    static final String START_QUEUE = "ItTraceStartQueue";
    static final String REQUEST_QUEUE = "ItTraceRequestQueue";
    static final String REPLY_QUEUE = "ItTraceReplyQueue";

    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(TracingIT.class.getName());
    private static final String NO_TRACE = "0".repeat(32);

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "tracing-rar", managed = false, testable = false, order = 1)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.forPostgres(Postgres.get()));
    }

    @Deployment(name = "tracing-beans", managed = false, testable = false, order = 2)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("tracing-it.war", TracingSender.class, TracingStarter.class,
                TracedRequestService.class, TracedReplyService.class, Recorder.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    @Test
    @RunAsClient
    void oneTraceRunsFromTheEjbsSendThroughTheMdbAndItsReply() throws IOException {
        BrokerDb db = BrokerDb.of(Postgres.get()).declare(START_QUEUE, REQUEST_QUEUE, REPLY_QUEUE);
        ManualServer.resetBaseDir();
        OtlpReceiver collector = OtlpReceiver.start();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(
                "-Dotel.exporter.otlp.traces.protocol=http/protobuf -Dotel.exporter.otlp.span.endpoint="
                + collector.endpoint()));
        boolean deployed = false;
        try {
            Path script = Files.createTempFile("tracing", ".cli");
            Files.writeString(script, recipe());
            Cli cli = ServerAdmin.cli(script.toString());
            assertEquals(0, cli.exit(), "the recipe ran: " + cli.output());
            assertEquals(0, ServerAdmin.reload().exit());
            await("reloaded").atMost(Duration.ofSeconds(120)).ignoreExceptions()
                    .until(() -> "running".equals(serverState()));
            deployer.deploy("tracing-rar");
            deployer.deploy("tracing-beans");
            deployed = true;

            db.sendOne(START_QUEUE, "start");
            await("the reply recorded").atMost(Duration.ofSeconds(90))
                    .until(() -> !body(db, "reply:").isEmpty());

            String sent = body(db, "sent:");
            assertNotEquals(NO_TRACE, sent, "the EJB's span is recorded: the subsystem is on");
            assertEquals(sent, body(db, "request:"), "the MDB ran in the EJB's trace");
            String[] own = body(db, "own:").split("/");
            assertEquals(sent, own[0], "the MDB's own span is in the EJB's trace");
            assertEquals(sent + " carried 00-" + sent + "-" + own[1] + "-01", body(db, "reply:"),
                    "the reply's MDB ran in the trace, the reply carrying the MDB's own span");
            assertFalse(ManualServer.logLines("SSBJCA0310").isEmpty(), "the adapter found the API");
            FIGURES.info("one trace through the EJB's send, the MDB and the reply's MDB: trace id " + sent
                    + " (the reply's parent span " + own[1] + ", the MDB's own)");

            String sender = body(db, "sender:");
            ExportedSpan request;
            try {
                request = await("the request's consumer span exported").until(
                        () -> consumerSpan(collector, REQUEST_QUEUE), java.util.Objects::nonNull);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("no consumer span for " + REQUEST_QUEUE + "; received " + collector.spans()
                        + " from " + collector.requests(), e);
            }
            assertEquals(sent, request.traceId(), "the consumer span is in the sender's trace");
            assertEquals(sender, request.parentSpanId(), "the consumer span's parent is the sender's span");
            assertEquals("process " + REQUEST_QUEUE, request.name());
            assertEquals("service_broker", request.attributes().get("messaging.system"));
            assertEquals(REQUEST_QUEUE, request.attributes().get("messaging.destination.name"));
            assertEquals("process", request.attributes().get("messaging.operation.type"));
            String conversation = request.attributes().get("messaging.message.conversation_id");
            assertEquals(conversation + "/0", request.attributes().get("messaging.message.id"));
            ExportedSpan pick = await("the MDB's own span exported").until(() -> collector.spans().stream()
                    .filter(s -> s.spanId().equals(own[1])).findFirst().orElse(null), java.util.Objects::nonNull);
            assertEquals(request.spanId(), pick.parentSpanId(), "the MDB's own span is a child of its consumer span");
            ExportedSpan reply = await("the reply's consumer span exported").until(
                    () -> consumerSpan(collector, REPLY_QUEUE), java.util.Objects::nonNull);
            assertEquals(sent, reply.traceId(), "the reply's consumer span is in the sender's trace");
            assertEquals(own[1], reply.parentSpanId(), "the reply's consumer span's parent is the MDB's own span");
            FIGURES.info("exported: the sender's span " + sender + " in trace " + sent + " -> CONSUMER span "
                    + request.spanId() + " (" + request.name() + ", " + request.attributes() + ") -> the MDB's span "
                    + pick.spanId() + " -> CONSUMER span " + reply.spanId() + " (" + reply.name() + ")");
        } finally {
            try {
                if (deployed) {
                    deployer.undeploy("tracing-beans");
                    deployer.undeploy("tracing-rar");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
                collector.close();
                db.close();
            }
        }
    }

    /** The one CONSUMER span the collector received for that queue, or null before it is there. */
    private static ExportedSpan consumerSpan(OtlpReceiver collector, String queue) {
        List<ExportedSpan> found = collector.spans().stream()
                .filter(s -> s.kind() == OtlpReceiver.CONSUMER && queue.equals(s.attributes()
                        .get("messaging.destination.name"))).toList();
        assertTrue(found.size() <= 1, "one consumer span for " + queue + ": " + found);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The CLI block of the guide's "Turning it on in WildFly", as written. */
    private static String recipe() {
        String section = Docs.section("docs/guide/tracing.md", "## Turning it on in WildFly");
        int start = section.indexOf("```\n") + 4;
        return section.substring(start, section.indexOf("```", start));
    }

    /** The one recorded body with that prefix, without it; empty when there is none. */
    private static String body(BrokerDb db, String prefix) {
        List<String> bodies = db.texts("SELECT body FROM it_record WHERE body LIKE ?", prefix + "%");
        return bodies.isEmpty() ? "" : bodies.get(bodies.size() - 1).substring(prefix.length());
    }

    private static String serverState() {
        return ServerAdmin.manual(Operations.createReadAttributeOperation(new ModelNode().setEmptyList(),
                "server-state")).asString();
    }
}
