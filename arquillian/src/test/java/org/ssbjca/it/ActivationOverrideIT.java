package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.logging.Logger;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.override.DescriptorOverriddenBean;
import org.ssbjca.it.override.MisspeltPropertyBean;
import org.ssbjca.it.override.PropertyReplacedBean;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.RemoteJmx;

/**
 * Issue 12: activation properties outside the code, "Activation properties outside the code" of
 * docs/guide/configuration.md as written: a {@code ${...}} in {@code @ActivationConfigProperty} resolved from the
 * server's system properties once the {@code ee} subsystem's annotation property replacement is on, and the
 * deployment's {@code jboss-ejb3.xml} overriding the annotation's values; each read back from the activation's MBean.
 * And what a misspelt property name gives: the adapter never sees it (the connector contract sets only the spec's own
 * properties), WildFly logs it.
 */
@ExtendWith(ArquillianExtension.class)
class ActivationOverrideIT {

    private static final Logger FIGURES = Logger.getLogger(ActivationOverrideIT.class.getName());

    /** The override, as docs/guide/configuration.md shows it. */
    static final String JBOSS_EJB3_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <jboss:ejb-jar xmlns:jboss="urn:jboss:domain:ejb3:4.0" xmlns="https://jakarta.ee/xml/ns/jakartaee"
                           version="4.0">
              <enterprise-beans>
                <message-driven>
                  <ejb-name>DescriptorOverriddenBean</ejb-name>
                  <activation-config>
                    <activation-config-property>
                      <activation-config-property-name>maxReaders</activation-config-property-name>
                      <activation-config-property-value>2</activation-config-property-value>
                    </activation-config-property>
                    <activation-config-property>
                      <activation-config-property-name>waitTimeout</activation-config-property-name>
                      <activation-config-property-value>1500</activation-config-property-value>
                    </activation-config-property>
                  </activation-config>
                </message-driven>
              </enterprise-beans>
            </jboss:ejb-jar>
            """;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "override-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("override-it"));
    }

    @Deployment(name = "override-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static JavaArchive beans() {
        return Deployments.ejbJar("override-it.jar", PropertyReplacedBean.class, DescriptorOverriddenBean.class,
                        MisspeltPropertyBean.class)
                .addAsManifestResource(new StringAsset(JBOSS_EJB3_XML), "jboss-ejb3.xml");
    }

    @Test
    @RunAsClient
    void activationPropertiesComeFromTheServerAndTheDescriptor() throws Exception {
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config("-Dssb.it.readers=3"));
        boolean deployed = false;
        try {
            ModelNode ee = new ModelNode();
            ee.add("subsystem", "ee");
            execute(Operations.createWriteAttributeOperation(ee, "annotation-property-replacement", true));
            deployer.deploy("override-rar");
            deployer.deploy("override-beans");
            deployed = true;
            try (RemoteJmx jmx = RemoteJmx.connect(managementPort())) {
                MBeanServerConnection server = jmx.server();
                ObjectName replaced = activation("PropertyReplacedBean@ItOverrideQueueA");
                ObjectName overridden = activation("DescriptorOverriddenBean@ItOverrideQueueB");
                ObjectName misspelt = activation("MisspeltPropertyBean@ItOverrideQueueC");
                assertEquals(3, server.getAttribute(replaced, "MaxReaders"), "${ssb.it.readers:1} with -D...=3");
                assertEquals(2, server.getAttribute(overridden, "MaxReaders"), "jboss-ejb3.xml over the annotation");
                assertEquals(1500L, server.getAttribute(overridden, "WaitTimeout"), "jboss-ejb3.xml");
                assertEquals(1, server.getAttribute(misspelt, "MaxReaders"), "maxReader is not maxReaders");
            }
            long warned = LogStore.serverLogLines("WFLYEJB0006: ActivationConfigProperty maxReader will be ignored");
            FIGURES.info("a misspelt activation property: " + warned + " server.log line(s) name it");
            assertTrue(warned > 0, "WildFly logs the unknown property by name");
        } finally {
            try {
                if (deployed) {
                    deployer.undeploy("override-beans");
                    deployer.undeploy("override-rar");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
            }
        }
    }

    private static ObjectName activation(String name) throws Exception {
        return new ObjectName("org.ssbjca:type=Activation,name=" + name);
    }

    private static int managementPort() {
        return Integer.getInteger("ssb.it.manualManagementPort", 10090);
    }

    private static void execute(ModelNode op) {
        try (ModelControllerClient client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1",
                managementPort())) {
            ModelNode outcome = client.execute(op);
            if (!Operations.isSuccessfulOutcome(outcome)) {
                throw new IllegalStateException(op + ": " + Operations.getFailureDescription(outcome));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
