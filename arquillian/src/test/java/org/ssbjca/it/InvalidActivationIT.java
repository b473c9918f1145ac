package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
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
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.invalid.TooManyReaders;

/** An invalid activation property fails the deployment, with a message that names the property and its range. */
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
