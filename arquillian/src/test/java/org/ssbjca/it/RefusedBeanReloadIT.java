package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.ServerAdmin;

/**
 * docs/reference/activation-properties.md, "After such a refusal, restart the server rather than reload it": WildFly
 * 39.0.1 keeps a bean refused for an activation property registered although its deployment was rolled back, and the
 * next {@code reload} fails the boot on that property ({@code WFLYSRV0055}, then {@code WFLYSRV0056}) and ends the
 * process; a new JVM boots clean. This pins WildFly's behaviour: once a WildFly release no longer does it, this test
 * fails, and the page's advice can go.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RefusedBeanReloadIT {

    private static final String REFUSED_VALUE = "'redeliveryJitter'";

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "reload-rar", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("refused-bean-reload-it"));
    }

    @Deployment(name = "reload-refused-bean", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static JavaArchive refusedBean() {
        return InvalidActivationIT.withProperty("redeliveryJitter", "1.5");
    }

    @Test
    void aReloadAfterARefusedBeanEndsTheServerAndARestartDoesNot() throws Exception {
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
        try {
            deployer.deploy("reload-rar");
            assertThrows(Exception.class, () -> deployer.deploy("reload-refused-bean"), "the bean refused");
            long refusals = LogStore.serverLogLines(REFUSED_VALUE);
            assertTrue(refusals >= 1, "the refusal names the property");
            assertEquals(0, LogStore.serverLogLines("WFLYSRV0055"), "no failed boot yet");

            ProcessHandle server = ManualServer.process();
            try {
                ServerAdmin.manual(Operations.createOperation("reload", new ModelNode().setEmptyList()));
            } catch (RuntimeException connectionLost) {
                // the server may drop the management connection as it goes down
            }
            // ended and reaped, so that Arquillian too sees its process gone
            server.onExit().get(120, TimeUnit.SECONDS);
            assertTrue(LogStore.serverLogLines("WFLYSRV0055") >= 1, "the reload's boot failed (WFLYSRV0055)");
            assertTrue(LogStore.serverLogLines("WFLYSRV0056") >= 1, "WFLYSRV0056");
            assertTrue(LogStore.serverLogLines(REFUSED_VALUE) > refusals,
                    "the failed boot names the refused bean's property again");
            controller.kill(ManualServer.QUALIFIER); // Arquillian forgets the process that ended

            long failedBoots = LogStore.serverLogLines("WFLYSRV0055");
            controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
            assertEquals("running", ServerAdmin.manual(Operations.createReadAttributeOperation(
                    new ModelNode().setEmptyList(), "server-state")).asString(), "a new JVM boots");
            assertEquals(failedBoots, LogStore.serverLogLines("WFLYSRV0055"), "and does not fail on the bean");
        } finally {
            controller.stop(ManualServer.QUALIFIER);
        }
    }
}
