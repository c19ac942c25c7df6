package io.rdmamon.nativeio;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmamon.protocol.testing.ArchitectureRules;
import io.rdmamon.protocol.testing.ArchitectureRules.Module;

/**
 * The native bindings' packages import each other one way only, and they use no other rdmamon module, no Vert.x
 * and no Micrometer: plain bindings (README.md "Source layout").
 */
@AnalyzeClasses(packages = "io.rdmamon.nativeio", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule packagesImportOneWay = ArchitectureRules.packagesFreeOfCycles(Module.NATIVE);

    @ArchTest
    static final ArchRule usesOnlyItsModules = ArchitectureRules.usesOnlyItsModules(Module.NATIVE);

    @ArchTest
    static final ArchRule usesNoVertxNorMicrometer =
            ArchitectureRules.usesNone(Module.NATIVE, "io.vertx..", "io.micrometer..");

    /** The tests' classes, which the rules above leave out, are imported apart. */
    @ArchTest
    static void testsUseOnlyItsModules(JavaClasses mainClasses) {
        ArchitectureRules.checkTestsUseOnlyItsModules(Module.NATIVE);
    }
}
