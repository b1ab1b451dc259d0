# imports sagemaker but creates no job
import sagemaker

session = sagemaker.Session()
