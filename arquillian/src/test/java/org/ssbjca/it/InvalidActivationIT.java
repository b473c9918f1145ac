package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.invalid.AnyReader;
import org.ssbjca.it.invalid.AnyRowReader;
import org.ssbjca.it.invalid.TooManyReaders;

/**
 * An invalid activation property fails the deployment, with a message that names the property and what it accepts:
 * out of range, and of the wrong type (WildFly converts the text with the property's type, and a value it cannot
 * convert must not become a default).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class InvalidActivationIT {

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("invalid-activation-it"));
    }

    @Deployment(name = "bad", managed = false, testable = false)
    static JavaArchive bad() {
        return ShrinkWrap.create(JavaArchive.class, "bad-mdb.jar")
                .addClass(TooManyReaders.class)
                .addAsManifestResource(new StringAsset("Dependencies: deployment.ssb-jca.rar\n"), "MANIFEST.MF");
    }

    @Deployment(name = "maxReaders-abc", managed = false, testable = false)
    static JavaArchive maxReadersAbc() {
        return withProperty("maxReaders", "abc");
    }

    @Deployment(name = "maxReaders-2.5", managed = false, testable = false)
    static JavaArchive maxReadersFraction() {
        return withProperty("maxReaders", "2.5");
    }

    @Deployment(name = "waitTimeout-5s", managed = false, testable = false)
    static JavaArchive waitTimeoutWithUnit() {
        return withProperty("waitTimeout", "5s");
    }

    @Deployment(name = "priorityEnabled-maybe", managed = false, testable = false)
    static JavaArchive priorityMaybe() {
        return withProperty("priorityEnabled", "maybe");
    }

    @Deployment(name = "commitBeforeDelivery-yes", managed = false, testable = false)
    static JavaArchive commitFirstYes() {
        return withProperty("commitBeforeDelivery", "yes");
    }

    @Deployment(name = "reconnectJitter-NaN", managed = false, testable = false)
    static JavaArchive jitterNaN() {
        return withProperty("reconnectJitter", "NaN");
    }

    /** The failure and breaker properties, shared by queue and table activations: a bad value on a table bean. */
    @Deployment(name = "table-breakerThreshold-many", managed = false, testable = false)
    static JavaArchive tableThresholdMany() {
        return withProperty(AnyRowReader.class, "breakerThreshold", "many");
    }

    @Deployment(name = "unrecoverableExceptions-trailing-comma", managed = false, testable = false)
    static JavaArchive trailingComma() {
        return withProperty(AnyReader.class, "unrecoverableExceptions", "java.lang.Error,");
    }

    static JavaArchive withProperty(String name, String value) {
        return withProperty(AnyReader.class, name, value);
    }

    /**
     * An MDB jar whose ejb-jar.xml gives the queue (for {@link AnyReader}) or the table and its two columns (for
     * {@link AnyRowReader}) and one property with a bad value.
     */
    private static JavaArchive withProperty(Class<?> bean, String name, String value) {
        boolean table = bean == AnyRowReader.class;
        StringBuilder base = new StringBuilder();
        String[] given = table ? new String[] {"table", "any_table", "keyColumn", "id", "payloadColumn", "body"}
                : new String[] {"queue", "AnyQueue"};
        for (int i = 0; i < given.length; i += 2) {
            base.append("<activation-config-property><activation-config-property-name>").append(given[i])
                    .append("</activation-config-property-name><activation-config-property-value>")
                    .append(given[i + 1]).append("</activation-config-property-value></activation-config-property>");
        }
        String xml = "<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\"><enterprise-beans>"
                + "<message-driven><ejb-name>AnyReader</ejb-name>"
                + "<ejb-class>" + bean.getName() + "</ejb-class>"
                + "<messaging-type>org.ssbjca.api." + (table ? "TableRowListener" : "BrokerMessageListener")
                + "</messaging-type>"
                + "<activation-config>" + base
                + "<activation-config-property><activation-config-property-name>" + name
                + "</activation-config-property-name><activation-config-property-value>" + value
                + "</activation-config-property-value></activation-config-property>"
                + "</activation-config></message-driven></enterprise-beans></ejb-jar>";
        String jboss = "<jboss:ejb-jar xmlns:jboss=\"urn:jboss:domain:ejb3:1.0\" "
                + "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" xmlns:r=\"urn:resource-adapter-binding\" "
                + "version=\"4.0\"><assembly-descriptor><r:resource-adapter-binding><ejb-name>AnyReader</ejb-name>"
                + "<r:resource-adapter-name>ssb-jca.rar</r:resource-adapter-name></r:resource-adapter-binding>"
                + "</assembly-descriptor></jboss:ejb-jar>";
        return ShrinkWrap.create(JavaArchive.class,
                        "bad-" + (table ? "table-" : "") + name + "-" + value.replaceAll("[^A-Za-z0-9]", "_") + ".jar")
                .addClass(bean)
                .addAsManifestResource(new StringAsset(xml), "ejb-jar.xml")
                .addAsManifestResource(new StringAsset(jboss), "jboss-ejb3.xml")
                .addAsManifestResource(new StringAsset("Dependencies: deployment.ssb-jca.rar\n"), "MANIFEST.MF");
    }

    @Test
    void aValueOfTheWrongTypeFailsTheDeploymentNamingTheProperty() {
        String[][] cases = {
            {"maxReaders", "abc", "a whole number"},
            {"maxReaders", "2.5", "a whole number"},
            {"waitTimeout", "5s", "a whole number"},
            {"priorityEnabled", "maybe", "true or false"},
            {"commitBeforeDelivery", "yes", "true or false"},
            {"reconnectJitter", "NaN", "between 0.0 and 1.0"},
            {"breakerThreshold", "many", "a whole number", "table-breakerThreshold-many"},
            {"unrecoverableExceptions", "java.lang.Error,", "fully qualified",
                "unrecoverableExceptions-trailing-comma"}
        };
        List<Executable> checks = new ArrayList<>();
        for (String[] c : cases) {
            checks.add(() -> {
                String name = c.length > 3 ? c[3] : c[0] + "-" + c[1];
                String failure;
                try {
                    deployer.deploy(name);
                    deployer.undeploy(name);
                    failure = null;
                } catch (Exception e) { // Arquillian's DeploymentException, thrown undeclared
                    failure = stackOf(e);
                }
                assertNotNull(failure, c[0] + "=" + c[1] + " was deployed");
                assertTrue(failure.contains("'" + c[0] + "'") && failure.contains(c[2]) && failure.contains(c[1]),
                        c[0] + "=" + c[1] + ": " + failure);
            });
        }
        assertAll(checks);
    }

    @Test
    void aBadMaxReadersFailsTheDeploymentNamingTheProperty() {
        Exception e = assertThrows(Exception.class, () -> deployer.deploy("bad"));
        String failure = stackOf(e);
        assertTrue(failure.contains("maxReaders") && failure.contains("between 1 and 256"), failure);
    }

    private static String stackOf(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
