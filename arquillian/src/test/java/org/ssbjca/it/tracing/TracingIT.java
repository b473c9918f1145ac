package org.ssbjca.it.tracing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
import org.ssbjca.it.support.Postgres;
import org.ssbjca.it.support.ServerAdmin;
import org.ssbjca.it.support.ServerAdmin.Cli;

/**
 * Issue 48 point 2: one trace from an EJB's SEND through the MDB and its reply. The manual server (standalone-full,
 * which has no opentelemetry subsystem) gets the subsystem by the CLI of docs/guide/tracing.md as written (its
 * collector endpoint has no listener: the spans' export fails, the trace ids do not depend on it), then the RAR on
 * PostgreSQL and the beans: {@link TracingSender} starts a root span and sends a request; {@link TracedRequestService}
 * records the trace id current in its call and replies in a span of its own; {@link TracedReplyService} records the
 * trace id current in its call and the text the reply carried.
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
        controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
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
        } finally {
            try {
                if (deployed) {
                    deployer.undeploy("tracing-beans");
                    deployer.undeploy("tracing-rar");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
                db.close();
            }
        }
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
