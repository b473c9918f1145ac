package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.lang.reflect.Field;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.docs.Docs;

/**
 * docs/guide/tracing.md: the page's bean, compiled as written (in a class, with the imports a source file has and a
 * stand-in for {@code @Inject}), given a tracer of OpenTelemetry's SDK and the connection factory, on H2: the order it
 * sends carries the trace context of its "place order" span.
 */
class TracingRecipeTest {

    @Test
    void theRecipesOrderCarriesItsSpansContext(@TempDir Path dir) throws Exception {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        try (OutboundFixture fx = new OutboundFixture(); SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exported)).build()) {
            try (Connection c = fx.db.source().open()) {
                TestAdmin admin = TestAdmin.of(fx.db.broker(), c);
                admin.createMessageType("//shop/Order", Validation.NONE);
                admin.createContract("//shop/Orders", Map.of("//shop/Order", SentBy.INITIATOR));
                admin.createService("//shop/Shop", "InitiatorQueue");
                admin.createService("//shop/Warehouse", OutboundFixture.TARGET_QUEUE, "//shop/Orders");
                c.commit();
            }
            ServiceBrokerConnectionFactoryImpl factory = new ServiceBrokerConnectionFactoryImpl(fx.mcf(),
                    new LazyEnlistmentTest.EnlistingConnectionManager());
            Object bean = recipe(dir);
            set(bean, "factory", factory);
            set(bean, "tracer", provider.get("shop"));
            bean.getClass().getMethod("placeOrder", String.class).invoke(bean, "order 42");

            List<BrokerMessage> got = new ArrayList<>();
            try (ServiceBrokerConnection c = factory.getConnection()) {
                got.addAll(c.receive(ReceiveRequest.from(OutboundFixture.TARGET_QUEUE).top(10)
                        .timeout(Duration.ofSeconds(10))));
            }
            SpanData span = exported.getFinishedSpanItems().get(0);
            assertEquals("place order", span.getName());
            assertEquals(1, got.size());
            assertEquals("order 42", got.get(0).bodyAsText());
            assertEquals(java.util.Optional.of("00-" + span.getTraceId() + "-" + span.getSpanId() + "-01"),
                    got.get(0).traceContext());
        }
    }

    private static void set(Object bean, String field, Object value) throws ReflectiveOperationException {
        Field f = bean.getClass().getDeclaredField(field);
        f.setAccessible(true);
        f.set(bean, value);
    }

    /** The page's Java block in a class {@code Orders}, compiled as written. */
    private static Object recipe(Path dir) throws Exception {
        String section = Docs.section("docs/guide/tracing.md", "## Turning it on in WildFly");
        int start = section.indexOf("```java\n") + "```java\n".length();
        String code = section.substring(start, section.indexOf("```", start));
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("Orders.java"), "import io.opentelemetry.api.trace.Span;\n"
                + "import io.opentelemetry.api.trace.Tracer;\nimport io.opentelemetry.context.Scope;\n"
                + "import jakarta.annotation.Resource;\nimport jakarta.inject.Inject;\n"
                + "import java.nio.charset.StandardCharsets;\nimport org.ssbjca.api.*;\n"
                + "public class Orders {\n" + code + "}\n");
        Files.writeString(Files.createDirectories(src.resolve("jakarta/inject")).resolve("Inject.java"),
                "package jakarta.inject; public @interface Inject { }");
        Files.writeString(Files.createDirectories(src.resolve("jakarta/annotation")).resolve("Resource.java"),
                "package jakarta.annotation; public @interface Resource { String lookup() default \"\"; }");
        Path out = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, System.err, "-d", out.toString(), "-cp", System.getProperty("java.class.path"),
                src.resolve("Orders.java").toString(), src.resolve("jakarta/inject/Inject.java").toString(),
                src.resolve("jakarta/annotation/Resource.java").toString());
        assertEquals(0, rc, "the recipe compiles");
        URLClassLoader loader = new URLClassLoader(new java.net.URL[] {out.toUri().toURL()},
                TracingRecipeTest.class.getClassLoader());
        return loader.loadClass("Orders").getConstructor().newInstance();
    }
}
