package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The archives the integration tests deploy, imported from what the reactor built: {@code
 * adapter/rar/target/ssb-jca.rar}
 * and {@code ejb-sample/target/ssb-jca-ejb-sample-*.jar}.
 * <p>
 * Failsafe passes their paths as the system properties {@value #RAR_PROPERTY} and {@value #EJB_SAMPLE_PROPERTY}; when
 * they are absent (a test started from an IDE) the files are looked for in the sibling modules' {@code target/}.
 * <p> Deploy the RAR first and not testable, then the EJB jar, whose manifest names the RAR's module:
 * <pre>{@code
 * @Deployment(name = "rar", order = 1, testable = false)
 * static ResourceAdapterArchive rar() { return Deployments.rar(); }
 *
 * @Deployment(name = "ejb", order = 2)
 * static JavaArchive ejb() { return Deployments.ejbSample(MyIT.class); }
 *
 * @Test @OperateOnDeployment("ejb")
 * void inTheContainer() { ... }
 * }</pre>
 * With two deployments, a test method without {@code @OperateOnDeployment} may be bound to the RAR, which is not
 * testable, and then runs on the client, silently: {@code @EJB} fields stay {@code null}.
 * <p>
 * Arquillian's Servlet protocol wraps the testable jar in a web archive named {@code test-<random UUID>.war}
 * ({@code WEB-INF/lib/ejb-sample.jar}): that is the deployment's name in WildFly and the EJBs' module name, so
 * {@code java:global} and {@code java:app} names change at every run; use {@code @EJB} injection or
 * {@code java:module} names. The jar's
 * {@code Dependencies: deployment.ssb-jca.rar} works from {@code WEB-INF/lib}: the API classes are the RAR's.
 */
public final class Deployments {

    /** The RAR's deployment name; the EJB jar's {@code Dependencies: deployment.ssb-jca.rar} depends on it. */
    public static final String RAR_NAME = "ssb-jca.rar";
    /** The EJB jar's archive name (Arquillian's Servlet protocol deploys it inside {@code test.war}). */
    public static final String EJB_SAMPLE_NAME = "ejb-sample.jar";
    /** System property: path of the built RAR. */
    public static final String RAR_PROPERTY = "ssb.it.rar";
    /** System property: path of the built EJB sample jar. */
    public static final String EJB_SAMPLE_PROPERTY = "ssb.it.ejbSample";

    private static final String IRONJACAMAR_XML = "META-INF/ironjacamar.xml";

    private Deployments() {
    }

    /**
     * @return the RAR exactly as built, named {@value #RAR_NAME}
     */
    public static ResourceAdapterArchive rar() {
        return ShrinkWrap.create(ZipImporter.class, RAR_NAME)
                .importFrom(builtRar().toFile())
                .as(ResourceAdapterArchive.class);
    }

    /**
     * @param ironjacamarXml the whole content of {@code META-INF/ironjacamar.xml}, for instance a connection
     *                       definition that points the adapter at the test database
     * @return the RAR as built, with its {@code META-INF/ironjacamar.xml} replaced (or added)
     */
    public static ResourceAdapterArchive rar(String ironjacamarXml) {
        return withIronjacamarXml(rar(), ironjacamarXml);
    }

    /**
     * Replaces (or adds) {@code META-INF/ironjacamar.xml} in a RAR.
     *
     * @return {@code rar}, changed
     */
    public static ResourceAdapterArchive withIronjacamarXml(ResourceAdapterArchive rar, String ironjacamarXml) {
        rar.delete(IRONJACAMAR_XML);
        rar.add(new StringAsset(ironjacamarXml), IRONJACAMAR_XML);
        return rar;
    }

    /**
     * @param testClasses classes to add, typically the test class and its helpers when the test runs in the container
     * @return the EJB sample jar as built (with its manifest), named {@value #EJB_SAMPLE_NAME}
     */
    public static JavaArchive ejbSample(Class<?>... testClasses) {
        return ShrinkWrap.create(ZipImporter.class, EJB_SAMPLE_NAME)
                .importFrom(builtEjbSample().toFile())
                .as(JavaArchive.class)
                .addClasses(testClasses);
    }

    /**
     * An EJB jar of test-only beans, deployed beside the RAR instead of the shipped sample.
     *
     * @param name the archive's name, e.g. {@code jmx-it.jar}
     * @param classes the beans and their helpers
     * @return a jar whose manifest says {@code Dependencies: deployment.ssb-jca.rar}, so that it sees the API classes
     *         of the deployed RAR
     */
    public static JavaArchive ejbJar(String name, Class<?>... classes) {
        return ShrinkWrap.create(JavaArchive.class, name)
                .addClasses(classes)
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: deployment." + RAR_NAME + "\n"));
    }

    /**
     * A web archive of test-only beans, for tests that run as client and need a web module.
     *
     * @param name the archive's name, for instance {@code inbound-it.war}
     * @param classes the test-only beans (never the sample's), and what they use
     * @return a web archive (not testable: tests that use it run as client) whose manifest depends on the RAR
     */
    public static WebArchive testWar(String name, Class<?>... classes) {
        return ShrinkWrap.create(WebArchive.class, name)
                .addClasses(classes)
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: deployment." + RAR_NAME + "\n"));
    }

    /** @return the built RAR file */
    public static Path builtRar() {
        return built(RAR_PROPERTY, Path.of("..", "adapter", "rar", "target"), "ssb-jca.rar");
    }

    /** @return the built EJB sample jar */
    public static Path builtEjbSample() {
        return built(EJB_SAMPLE_PROPERTY, Path.of("..", "ejb-sample", "target"), "ssb-jca-ejb-sample-*.jar");
    }

    private static Path built(String property, Path fallbackDir, String glob) {
        String configured = System.getProperty(property);
        if (configured != null && !configured.isBlank()) {
            Path file = Path.of(configured);
            if (Files.isRegularFile(file)) {
                return file;
            }
            throw new IllegalStateException(property + " names " + file + ", which is not a file: build the reactor"
                    + " (mvn -B verify from the repository root) rather than this module alone");
        }
        try (DirectoryStream<Path> found = Files.newDirectoryStream(fallbackDir, glob)) {
            for (Path file : found) {
                return file;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot look for " + glob + " in " + fallbackDir.toAbsolutePath(), e);
        }
        throw new IllegalStateException("no " + glob + " in " + fallbackDir.toAbsolutePath() + " and " + property
                + " is not set: build the reactor first");
    }
}
