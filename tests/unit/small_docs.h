/*
 * small_docs.h - small but valid instance-data documents (instances,
 * tested models, frameworks) for a given data_version and generated
 * date, so that failing every allocation of a load or an update stays
 * fast under ASan with SMP_ARENA_DEBUG. String literals only.
 */
#ifndef SMALL_DOCS_H
#define SMALL_DOCS_H

#define SMALL_HEAD(v, d)                                                       \
	"{\"schema_version\": 1, \"data_version\": \"" v "\", "                \
	"\"generated\": \"" d "\", "                                           \
	"\"sources\": [{\"key\": \"K\", \"description\": \"d\"}], "
#define SMALL_INSTANCES(v, d, vcpus)                                           \
	SMALL_HEAD(v, d)                                                       \
	"\"instances\": [{\"type\": \"ml.p3.8xlarge\", \"family\": \"p3\", "   \
	"\"vcpus\": " vcpus ", \"memory_gib\": 244, \"gpus\": 4, "             \
	"\"gpu_model\": \"V100\", \"gpu_memory_gib\": 16, \"efa\": false, "    \
	"\"network_gbps\": 10, \"compiler_supported\": true, "                 \
	"\"source\": \"K\"}]}"
#define SMALL_TESTED(v, d)                                                     \
	SMALL_HEAD(v, d)                                                       \
	"\"models\": [{\"framework\": \"pytorch\", \"framework_version\": "    \
	"\"1.11.0\", \"transformers_version\": \"4.21.1\", \"model\": "        \
	"\"bert\", \"dataset\": null, \"instance_type\": \"ml.p3.8xlarge\", "  \
	"\"precision\": null, \"sequence_length\": 512, \"scope\": null, "     \
	"\"native_batch_size\": null, \"compiler_batch_size\": 24, "           \
	"\"batch_size_is_lower_bound\": false, \"instance_count\": 2, "        \
	"\"source\": \"x\"}]}"
#define SMALL_FRAMEWORKS(v, d)                                                 \
	SMALL_HEAD(v, d)                                                       \
	"\"supported_instance_classes\": [\"p3\"], "                           \
	"\"sdk_efa_instance_types\": [], \"pytorchxla_min_version\": "         \
	"{\"huggingface\": \"1.11\", \"pytorch\": \"1.12\"}, "                 \
	"\"image_configs\": [{\"framework\": \"pytorch\", \"compiler\": "      \
	"false, \"version\": \"1.12.0\", \"version_aliases\": [], "            \
	"\"base_framework\": null, \"base_framework_aliases\": [], "           \
	"\"py_versions\": [\"py38\"], \"py_keyed\": false, \"repository\": "   \
	"\"pytorch-training\", \"registries\": \"r1\", \"processors\": "       \
	"[\"gpu\"], \"container_version_cpu\": null, "                         \
	"\"container_version_gpu\": null}], "                                  \
	"\"image_registries\": [{\"set\": \"r1\", \"region\": \"us-east-1\", " \
	"\"account\": \"763104351884\"}], "                                    \
	"\"ecr_hostnames\": [{\"region\": \"us-east-1\", \"hostname\": "       \
	"\"ecr.us-east-1.amazonaws.com\"}], \"image_tag_suffixes\": [], "      \
	"\"sdk_graviton_families\": [], \"images\": "                          \
	"[{\"estimator\": \"huggingface\", \"framework\": \"pytorch\", "       \
	"\"framework_version\": \"1.11.0\", \"framework_aliases\": [], "       \
	"\"transformers_version\": \"4.21.1\", \"transformers_aliases\": [], " \
	"\"py_versions\": [\"py38\"], \"repository\": \"r\", "                 \
	"\"source\": \"s\"}]}"

#endif
